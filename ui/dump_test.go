package ui

import (
	"fmt"
	"os"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	for _, sz := range [][2]int{{120, 40}, {80, 24}, {64, 20}, {50, 10}} {
		m := New(Options{Width: sz[0], Height: sz[1]})
		fmt.Printf("=== %dx%d\n%s\n", sz[0], sz[1], ansi.Strip(m.frame()))
	}
}
