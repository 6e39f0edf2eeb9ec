#!/usr/bin/env python3
"""extract.py <guide.md> <name>: prints the code block between
`<!-- name -->` and `<!-- /name -->`, without its fences."""
import sys

text = open(sys.argv[1]).read()
name = sys.argv[2]
begin, end = "<!-- %s -->" % name, "<!-- /%s -->" % name
if begin not in text or end not in text:
    sys.exit("extract.py: no %s ... %s in %s" % (begin, end, sys.argv[1]))
block = text.split(begin, 1)[1].split(end, 1)[0].strip().splitlines()
if not block or not block[0].startswith("```") or block[-1] != "```":
    sys.exit("extract.py: the %s block is not one fenced code block" % name)
print("\n".join(block[1:-1]))
