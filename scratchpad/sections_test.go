package scratchpad

import (
	"reflect"
	"strings"
	"testing"
)

// complete is a scratchpad with every default heading.
const complete = "# Notes\n\n## What I did\nstuff\n\n## Cross-agent observations\nnone\n\n## Unresolved\nnothing\n"

func TestMissingSectionsDefault(t *testing.T) {
	const (
		did    = "What I did"
		cross  = "Cross-agent observations"
		unres  = "Unresolved"
		others = "## Cross-agent observations\n## Unresolved\n"
	)
	tests := []struct {
		name    string
		content string
		missing []string
	}{
		{"complete", complete, nil},
		{"empty", "", []string{did, cross, unres}},
		{"no hash at all", "What I did\nCross-agent observations\nUnresolved\n", []string{did, cross, unres}},
		{"level 1", "# What I did\n" + others, nil},
		{"level 3", "### What I did\n" + others, nil},
		{"level 6", "###### What I did\n" + others, nil},
		{"level 7 is text", "####### What I did\n" + others, []string{did}},
		{"case-insensitive", "## WHAT I DID\n## cross-AGENT observations\n## unresolved\n", nil},
		{"trailing colon", "## What I did:\n" + others, nil},
		{"trailing colon after space", "## What I did :\n" + others, nil},
		{"two colons", "## What I did::\n" + others, []string{did}},
		{"extra spaces", "##    What   I\tdid   \n" + others, nil},
		{"closing hashes", "## What I did ##\n## Cross-agent observations #####\n## Unresolved #\n", nil},
		{"up to three spaces indent", "   ## What I did\n" + others, nil},
		{"emphasis", "## **What** I _did_\n## *Cross-agent observations*\n## `Unresolved`\n", nil},
		{"emphasis with colon", "## **Unresolved:**\n## What I did\n## Cross-agent observations\n", nil},
		{"emphasis markers anywhere", "## __What__ I *did*\n" + others, nil},
		{"BOM", "\uFEFF## What I did\n" + others, nil},
		{"CRLF", "## What I did\r\nbody\r\n## Cross-agent observations\r\n## Unresolved\r\n", nil},
		{"CRLF with BOM", "\uFEFF## What I did:\r\n## Cross-agent observations\r\n## Unresolved\r\n", nil},
		{"no space after hash", "#What I did\n" + others, []string{did}},
		{"no space level 2", "##What I did\n" + others, []string{did}},
		{"backtick fence", "```\n## What I did\n```\n" + others, []string{did}},
		{"tilde fence", "~~~md\n## What I did\n~~~\n" + others, []string{did}},
		{"unclosed fence swallows the rest", "## What I did\n```\n## Cross-agent observations\n## Unresolved\n", []string{cross, unres}},
		{"after a closed fence", "```\ncode\n```\n## What I did\n" + others, nil},
		{"indented code", "para\n\n    ## What I did\n" + others, []string{did}},
		{"tab-indented code", "\t## What I did\n" + others, []string{did}},
		{"html comment", "<!--\n## What I did\n-->\n" + others, []string{did}},
		{"blockquote", "> ## What I did\n" + others, []string{did}},
		{"list item", "- ## What I did\n" + others, []string{did}},
		{"numbered list item", "1. ## What I did\n" + others, []string{did}},
		{"setext equals", "What I did\n==========\n" + others, []string{did}},
		{"setext dashes", "What I did\n---\n" + others, []string{did}},
		{"body mention", "I wrote What I did and Unresolved here.\n## Cross-agent observations\n", []string{did, unres}},
		{"mention after hash mid-line", "see ## What I did\n" + others, []string{did}},
		{"escaped hash", "\\## What I did\n" + others, []string{did}},
		{"longer heading", "## What I did today\n" + others, []string{did}},
		{"heading prefix only", "## What I\n" + others, []string{did}},
		{"empty heading", "##\n" + others, []string{did}},
		{"order kept", "## Unresolved\n", []string{did, cross}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MissingSections([]byte(tt.content), DefaultSections)
			if !reflect.DeepEqual(got, tt.missing) {
				t.Errorf("MissingSections = %q, want %q\ncontent:\n%s", got, tt.missing, tt.content)
			}
		})
	}
}

func TestMissingSectionsCustom(t *testing.T) {
	content := "## Summary\n## Risks:\n### Next   steps\n"
	tests := []struct {
		name     string
		required []string
		missing  []string
	}{
		{"none required", nil, nil},
		{"all present", []string{"Summary", "Risks", "Next steps"}, nil},
		{"required is normalised too", []string{"  summary ", "RISKS:", "next\tsteps"}, nil},
		{"missing kept in given order and spelling", []string{"Zeta", "Summary", "alpha ", "Risks"}, []string{"Zeta", "alpha "}},
		{"duplicates reported twice", []string{"X", "X"}, []string{"X", "X"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MissingSections([]byte(content), tt.required)
			if !reflect.DeepEqual(got, tt.missing) {
				t.Errorf("MissingSections = %q, want %q", got, tt.missing)
			}
		})
	}
}

func TestHeadings(t *testing.T) {
	content := "\uFEFF# Title\r\nText\r\n## Sub  Heading:\r\n> # quoted\r\n```\r\n# code\r\n```\r\nSetext\r\n===\r\n### *Em* `code`   ##\r\n"
	want := map[string]bool{"title": true, "sub heading": true, "em code": true}
	if got := Headings([]byte(content)); !reflect.DeepEqual(got, want) {
		t.Errorf("Headings = %v, want %v", got, want)
	}
	if got := Headings(nil); len(got) != 0 {
		t.Errorf("Headings(nil) = %v", got)
	}
}

func TestMissingSectionsLargeFile(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString("line of body text with a # in it\n")
	}
	b.WriteString(complete)
	if got := MissingSections([]byte(b.String()), DefaultSections); got != nil {
		t.Errorf("MissingSections = %q", got)
	}
}
