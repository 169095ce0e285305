// Package scratchpad holds the files and rules of the scratchpad protocol:
// where each agent writes (<root>/<agent>/<YYYY-MM-DD>.md), how an agent type
// becomes a safe directory name, which Markdown headings a scratchpad must
// have, and how a whole scratchpad tree is checked for compliance.
//
// Nothing here trusts a name taken from a hook event: every path it builds is
// checked to stay inside the scratchpad root, symlinks included.
package scratchpad
