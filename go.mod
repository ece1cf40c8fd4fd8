module xcvr

go 1.26

require (
	github.com/goccy/go-yaml v1.19.2
	github.com/sahilm/fuzzy v0.1.3
)
