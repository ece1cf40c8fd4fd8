package help

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestEveryPageIsListed keeps the listing order and the files in step: a page
// in topics/ missing from the order, or an order entry without a page, fails.
func TestEveryPageIsListed(t *testing.T) {
	seen := map[string]bool{}
	for _, tp := range Topics() {
		seen[tp.Name] = true
		if tp.Title == "" || !strings.HasPrefix(tp.Body, "# ") {
			t.Errorf("%s: a page starts with its '# Title' line", tp.Name)
		}
	}
	for _, n := range order {
		if !seen[n] {
			t.Errorf("order lists %q but topics/%s.md does not exist", n, n)
		}
	}
	if len(seen) != len(order) {
		t.Errorf("%d pages, %d in the order: add the new page to order", len(seen), len(order))
	}
	if _, ok := Lookup("security"); !ok {
		t.Error("Lookup(security) failed")
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found a page")
	}
}

// TestLinksResolve: a relative link in a page points at a file of the
// repository (the pages are read on GitHub too), and the README links every
// page.
func TestLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, tp := range Topics() {
		for _, m := range link.FindAllStringSubmatch(tp.Body, -1) {
			if _, err := os.Stat("topics/" + m[1]); err != nil {
				t.Errorf("%s: link %s: %v", tp.Name, m[1], err)
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range Topics() {
		if !strings.Contains(string(readme), "internal/help/topics/"+tp.Name+".md") {
			t.Errorf("README does not link the page %s", tp.Name)
		}
	}
}

// TestIndexIsTopicsWithoutBodies: the listing every process builds (Index,
// first lines only) has the names, titles and order of the full pages, and
// Body gives each page's whole text.
func TestIndexIsTopicsWithoutBodies(t *testing.T) {
	full, index := Topics(), Index()
	if len(full) != len(index) {
		t.Fatalf("Index has %d pages, Topics %d", len(index), len(full))
	}
	for i, tp := range full {
		if ix := index[i]; ix.Name != tp.Name || ix.Title != tp.Title || ix.Body != "" {
			t.Errorf("Index[%d] = %q %q (body %d bytes), Topics has %q %q", i, ix.Name, ix.Title, len(ix.Body), tp.Name, tp.Title)
		}
		if Body(tp.Name) != tp.Body {
			t.Errorf("Body(%q) is not the page", tp.Name)
		}
	}
	if Body("nope") != "" {
		t.Error(`Body("nope") is not empty`)
	}
}
