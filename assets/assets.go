// Package assets holds the data files xcvr embeds in its binary.
package assets

import _ "embed"

// ModelsYAML is the built-in architecture catalog (models.yaml).
//
//go:embed models.yaml
var ModelsYAML []byte

// TourYAML holds the guided tour's built-in scenarios (tour.yaml), read by
// internal/tour.
//
//go:embed tour.yaml
var TourYAML []byte
