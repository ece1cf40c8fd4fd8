//go:build unix && !linux

package logs

const mapPopulate = 0
