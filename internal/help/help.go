// Package help holds xcvr's reference pages: `xcvr help TOPIC` prints one, so
// the reference is at hand on a cluster node without a browser, and `xcvr man`
// writes each as a man page. The pages are the Markdown files in topics/, which
// the README links to; they are the reference, the README only the front page.
package help

import (
	"bytes"
	"embed"
	"strings"
)

//go:embed topics/*.md
var files embed.FS

// Topic is one reference page.
type Topic struct {
	// Name is what `xcvr help NAME` takes and the file's base name.
	Name string
	// Title is the page's first heading.
	Title string
	// Body is the whole page, Markdown, title included.
	Body string
}

// order is the order `xcvr help` lists the topics in: what an operator needs
// first, then the reference, then the project's own.
var order = []string{
	"examples", "commands", "exit-codes", "json", "deployments", "auditing", "logs", "node",
	"comparing", "modelling", "limits", "explorer", "guided-tour", "accessible", "serving", "security",
	"install", "performance", "develop", "sources",
}

// Topics returns every page in listing order; a file not in the order comes
// last, by name, so a new page is never left out.
func Topics() []Topic { return topics(true) }

// Index is Topics without the pages' bodies (Body is empty): the names and
// titles cobra lists, read from the first line of each page. Every process
// builds the command tree, and copying 190 KB of pages out of the binary to
// list them was a tenth of an explain's time.
func Index() []Topic { return topics(false) }

// Body returns the page called name, title included, or "".
func Body(name string) string {
	b, err := files.ReadFile("topics/" + name + ".md")
	if err != nil {
		return ""
	}
	return string(b)
}

func topics(bodies bool) []Topic {
	entries, _ := files.ReadDir("topics")
	byName := map[string]Topic{}
	var extra []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".md")
		var body, title string
		if bodies {
			body = Body(name)
			title, _, _ = strings.Cut(body, "\n")
		} else {
			title = firstLine("topics/" + e.Name())
		}
		byName[name] = Topic{Name: name, Title: strings.TrimSpace(strings.TrimPrefix(title, "# ")), Body: body}
		extra = append(extra, name)
	}
	var out []Topic
	for _, n := range order {
		if t, ok := byName[n]; ok {
			out = append(out, t)
			delete(byName, n)
		}
	}
	for _, n := range extra {
		if t, ok := byName[n]; ok {
			out = append(out, t)
		}
	}
	return out
}

// firstLine reads a page up to its first newline only.
func firstLine(path string) string {
	f, err := files.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var line []byte
	buf := make([]byte, 128)
	for {
		n, err := f.Read(buf)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return string(append(line, buf[:i]...))
		}
		line = append(line, buf[:n]...)
		if err != nil {
			return string(line)
		}
	}
}

// Lookup returns the page called name.
func Lookup(name string) (Topic, bool) {
	for _, t := range Topics() {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}
