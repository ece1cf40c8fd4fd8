// Package help holds xcvr's reference pages: `xcvr help TOPIC` prints one, so
// the reference is at hand on a cluster node without a browser, and `xcvr man`
// writes each as a man page. The pages are the Markdown files in topics/, which
// the README links to; they are the reference, the README only the front page.
package help

import (
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
func Topics() []Topic {
	entries, _ := files.ReadDir("topics")
	byName := map[string]Topic{}
	var extra []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".md")
		b, _ := files.ReadFile("topics/" + e.Name())
		body := string(b)
		title, _, _ := strings.Cut(body, "\n")
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

// Lookup returns the page called name.
func Lookup(name string) (Topic, bool) {
	for _, t := range Topics() {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}
