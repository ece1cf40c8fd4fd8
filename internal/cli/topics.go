package cli

import (
	"github.com/spf13/cobra"

	"xcvr/internal/help"
)

// topicCommands makes each reference page an "additional help topic": cobra
// lists them under `xcvr help` and prints one for `xcvr help NAME`. They have no
// Run: `xcvr NAME` prints the page too (cobra shows a command without Run as
// help). Their names differ from every command's, which cobra would find first.
func topicCommands() []*cobra.Command {
	var cmds []*cobra.Command
	for _, t := range help.Topics() {
		cmds = append(cmds, &cobra.Command{
			Use:   t.Name,
			Short: t.Title,
			Long:  t.Body,
		})
	}
	return cmds
}
