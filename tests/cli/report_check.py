#!/usr/bin/env python3
"""Check a page of `clbench report` (tests/cli/test_report.sh): it parses as
HTML (Python's html.parser, every element closed where it was opened), runs
nothing and loads nothing (no script element, no event handler, no URL but
the SVG namespaces, a Content-Security-Policy), has the sections asked for
(-s NAME, repeatable; -f NAME: a section with an inline SVG figure), and shows
the texts asked for as text (-t TEXT: the hostile names must come out as
characters, not markup).

    report_check.py PAGE [-s SECTION]... [-f SECTION]... [-t TEXT]... [--no-svg]
Exit 0 when every check passes; each failure is one line on stderr."""
import argparse
import html.parser
import sys

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "source", "area", "base"}
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors = [], []
        self.sections = {}         # h2 text -> number of svg elements in its section
        self.current = None
        self.in_h2 = False
        self.h2 = ""
        self.text = []
        self.csp = False
        self.tags = 0

    def check_attrs(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.errors.append(f"an event handler attribute {name} on <{tag}>")
            if name in ("src", "action", "formaction", "srcset"):
                self.errors.append(f"a {name} attribute on <{tag}>")
            if name in ("href", "xlink:href") and not value.startswith("#"):
                self.errors.append(f"a reference out of the page: {name}={value!r}")
            if "http" in value.lower() and not (name.startswith("xmlns") and value in NAMESPACES):
                self.errors.append(f"a URL in {name}={value!r} on <{tag}>")
            if "url(" in value and "url(#" not in value:
                self.errors.append(f"a url() out of the page in {name}={value!r}")
            if tag == "meta" and name == "http-equiv" and value.lower() == "content-security-policy":
                self.csp = True

    def handle_starttag(self, tag, attrs):
        self.tags += 1
        if tag in ("script", "iframe", "object", "embed", "foreignobject", "img", "link", "base"):
            self.errors.append(f"a <{tag}> element")
        self.check_attrs(tag, attrs)
        if tag == "svg" and self.current is not None:
            self.sections[self.current] += 1
        if tag == "h2":
            self.in_h2, self.h2 = True, ""
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags += 1
        self.check_attrs(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>"
                               f" at line {self.getpos()[0]}")
            return
        self.stack.pop()
        if tag == "h2":
            self.in_h2 = False
            self.current = self.h2.strip()
            self.sections[self.current] = 0

    def handle_data(self, data):
        if self.in_h2:
            self.h2 += data
        self.text.append(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--no-svg", action="store_true", help="the page has no figure")
    ap.add_argument("-s", "--section", action="append", default=[])
    ap.add_argument("-f", "--figure", action="append", default=[], help="a section with a figure")
    ap.add_argument("-t", "--text", action="append", default=[])
    a = ap.parse_args()
    with open(a.page, encoding="utf-8") as f:
        src = f.read()
    p = Page()
    p.feed(src)
    p.close()
    errors = list(p.errors)
    if p.stack:
        errors.append(f"elements never closed: {p.stack}")
    if not src.startswith("<!DOCTYPE html>"):
        errors.append("no <!DOCTYPE html>")
    if not p.csp:
        errors.append("no Content-Security-Policy")
    text = "".join(p.text)
    for s in a.section + a.figure:
        if s not in p.sections:
            errors.append(f"no section {s!r} (sections: {sorted(p.sections)})")
        elif s in a.figure and not p.sections[s]:
            errors.append(f"section {s!r} has no figure")
    if a.no_svg and sum(p.sections.values()):
        errors.append("a figure in a page that should have none")
    for t in a.text:
        if t not in text:
            errors.append(f"{t!r} is not in the page's text")
    for e in errors:
        print(f"report_check: {e}", file=sys.stderr)
    print(f"{p.tags} elements, {len(p.sections)} sections, "
          f"{sum(p.sections.values())} figures")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
