package cli

import (
	"github.com/spf13/cobra"

	"xcvr/internal/help"
)

// topicCommands makes each reference page an "additional help topic": cobra
// lists them under `xcvr help` and prints one for `xcvr help NAME`. They have no
// Run: `xcvr NAME` prints the page too (cobra shows a command without Run as
// help). Their names differ from every command's, which cobra would find first.
//
// The command tree is built by every process, so a page's text is read only
// when it is shown: its help function fills Long first.
func topicCommands() []*cobra.Command {
	var cmds []*cobra.Command
	for _, t := range help.Index() {
		c := &cobra.Command{Use: t.Name, Short: t.Title}
		c.SetHelpFunc(func(c *cobra.Command, args []string) {
			if c.Long == "" {
				c.Long = help.Body(c.Name())
			}
			c.Parent().HelpFunc()(c, args)
		})
		cmds = append(cmds, c)
	}
	return cmds
}
