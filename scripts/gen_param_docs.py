#!/usr/bin/env python3
"""Generate the workload reference blocks of docs/ from the program itself.

    gen_param_docs.py [--check] [CLBENCH]

CLBENCH (default $CLBENCH, else build-test/clbench) is the built binary. Its
`clbench --help` lists the workloads and `clbench WORKLOAD --help` prints one
workload's descriptor (types, sizes, baselines, parameters with their
defaults, models: clb_workload_help in host/cli/cmd_list.c). This script turns
that text into Markdown and writes it between the markers

    <!-- params:begin ... -->  ...  <!-- params:end -->

of docs/workloads/WORKLOAD.md, and the list of workloads between
`<!-- workloads:begin ... -->` and `<!-- workloads:end -->` of
docs/WORKLOADS.md. The prose around the markers is written by hand.

With --check nothing is written: it prints what differs (a unified diff) and
exits 1 when a block differs from what the binary prints, a workload has no
page or a page no workload (the CTest test docs_params runs it). Without
--check it rewrites the blocks in place; run it after changing a workload's
descriptor and commit the pages with the change."""
import difflib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
DOCS = os.path.join(ROOT, "docs")
PAGES = os.path.join(DOCS, "workloads")
SCRIPT = "scripts/gen_param_docs.py"


class HelpError(Exception):
    """The help text is not in the form this script reads."""


def run(clbench, *args):
    """clbench ARGS --wide: every field of a help on one line (a person's 100 columns wrap them)."""
    out = subprocess.run([clbench, *args, "--wide"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True, check=False)
    if out.returncode != 0:
        raise HelpError("'%s %s' exited %d: %s" % (clbench, " ".join(args), out.returncode,
                                                  out.stderr.strip()))
    return out.stdout


def workloads(clbench):
    """(name, summary) of every workload, in `clbench --help` order."""
    lines = run(clbench, "--help").splitlines()
    if "workloads:" not in lines:
        raise HelpError("'clbench --help' has no 'workloads:' list")
    found = []
    for line in lines[lines.index("workloads:") + 1:]:
        if not line.strip():
            break
        m = re.match(r"^  ([a-z0-9_]+) +(.*)$", line)
        if not m:
            raise HelpError("unexpected line in the workloads list: %r" % line)
        found.append((m.group(1), m.group(2)))
    return found


def parse_param(line):
    """'  KEY  ROLE  HELP [default D]' -> (key, role, help, default or ''); the
    role (case or tuning: docs/COMPARE.md, "Line identity") is required."""
    m = re.match(r"^  ([a-z0-9_]+) +(case|tuning) +(.*)$", line)
    if not m:
        raise HelpError("unexpected parameter line (KEY ROLE HELP): %r" % line)
    key, role, text = m.group(1), m.group(2), m.group(3)
    default = ""
    d = re.match(r"^(.*) \[default (.*)\]$", text)
    if d:
        text, default = d.group(1), d.group(2)
    return key, role, text, default


def parse_help(name, text):
    """The fields of `clbench NAME --help` (see clb_workload_help)."""
    info = {"params": [], "row_keys": [], "models": [], "baselines": None, "other": []}
    lines = text.splitlines()
    if not lines or not lines[0].startswith(name + ": "):
        raise HelpError("'clbench %s --help' does not start with '%s: '" % (name, name))
    info["summary"] = lines[0][len(name) + 2:]
    in_params = None  # the list the indented lines go to: params, row_keys
    for line in lines[1:]:
        if not line:
            continue
        m = re.match(r"^types:  (.*) \(default (.*)\)$", line)
        if m:
            info["types"], info["default_types"] = m.group(1), m.group(2)
        elif line.startswith("sizes:  "):
            info["sizes"] = line[len("sizes:  "):]
        elif line.startswith("        --quick: "):
            info["quick"] = line[len("        --quick: "):]
        elif line.startswith("baselines: "):
            info["baselines"] = line[len("baselines: "):].split(" (", 1)[0]
        elif line.startswith("parameters ("):
            in_params = info["params"]
        elif line.startswith("keys of its rows' params"):
            in_params = info["row_keys"]
        elif line.startswith("model:  "):
            in_params = None
            cmd, _, summary = line[len("model:  "):].partition("  ")
            info["models"].append((cmd, summary))
        elif in_params is not None and line == "  (none)":
            pass
        elif in_params is not None and line.startswith("  "):
            in_params.append(parse_param(line))
        elif in_params is info["params"] and not info["params"] and \
                not re.match(r"^[a-z]+: ", line):
            pass  # the parameters' heading goes on (what case and tuning mean)
        elif re.match(r"^[a-z]+: ", line):
            # a field this script does not know yet: shown as it is printed
            in_params = None
            label, _, value = line.partition(": ")
            info["other"].append((label, value.strip()))
        else:
            raise HelpError("unexpected line in 'clbench %s --help': %r" % (name, line))
    for field in ("types", "sizes", "quick"):
        if field not in info:
            raise HelpError("'clbench %s --help' has no %s line" % (name, field))
    return info


def md(text):
    """Help text as Markdown text: the characters Markdown would read as
    markup (emphasis, tables, code, links, HTML) escaped."""
    return re.sub(r"([\\`*_|<\[\]])", r"\\\1", text)


def code_list(csv_text):
    return ", ".join("`%s`" % t for t in csv_text.split(","))


def render_header(name, info):
    out = []
    if info["types"] == "(none)":
        out.append("- Types: none (the rows have no element type)")
    else:
        out.append("- Types: %s (default `%s`)" % (code_list(info["types"]), info["default_types"]))
    out.append("- Sizes (`-s`): %s" % md(info["sizes"]))
    out.append("- `--quick` sizes: `%s`" % info["quick"])
    if info["baselines"]:
        out.append("- Baselines: %s (the ratios `of_*` in each row's metrics)"
                   % code_list(info["baselines"]))
    for cmd, summary in info["models"]:
        out.append("- Model: `%s`: %s" % (cmd, md(summary)))
    for label, value in info["other"]:
        out.append("- %s: %s" % (label.capitalize(), md(value)))
    return out


def render_params(name, info):
    out = ["No parameters."]
    if info["params"]:
        out = ["Parameters (`--param KEY=VALUE`; a profile's `[tuning] %s.KEY` overrides the "
               "default), each a case (part of what a line of results is) or tuning (how it "
               "is run; [COMPARE.md](../COMPARE.md), \"Line identity\"):" % name, "",
               "| parameter | role | default | meaning |", "|---|---|---|---|"]
        for key, role, text, default in info["params"]:
            out.append("| `%s` | %s | %s | %s |"
                       % (key, role, "`%s`" % default if default else "", md(text)))
    if info["row_keys"]:
        out += ["", "Keys of the rows' params besides these (written by the run, not "
                "`--param`):", "", "| key | role | meaning |", "|---|---|---|"]
        for key, role, text, _ in info["row_keys"]:
            out.append("| `%s` | %s | %s |" % (key, role, md(text)))
    return out


def render(name, info):
    """The generated block of docs/workloads/NAME.md, markers included."""
    return (["<!-- params:begin: generated by %s from `clbench %s --help`; edit the "
             "workload's descriptor (host/workloads/%s/), then run the script -->"
             % (SCRIPT, name, name)]
            + render_header(name, info) + [""] + render_params(name, info)
            + ["<!-- params:end -->"])


def render_index(found):
    return (["<!-- workloads:begin: generated by %s from `clbench --help` -->" % SCRIPT,
             "| workload | what it measures |", "|---|---|"]
            + ["| [%s](workloads/%s.md) | %s |" % (n, n, md(s)) for n, s in found]
            + ["<!-- workloads:end -->"])


def replace_block(text, tag, block, path):
    """text with the lines from '<!-- TAG:begin' to '<!-- TAG:end -->'
    replaced by block (a list of lines)."""
    lines = text.split("\n")
    begin = [i for i, l in enumerate(lines) if l.startswith("<!-- %s:begin" % tag)]
    end = [i for i, l in enumerate(lines) if l == "<!-- %s:end -->" % tag]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise HelpError("%s: needs one '<!-- %s:begin ... -->' line and one "
                        "'<!-- %s:end -->' line after it" % (path, tag, tag))
    return "\n".join(lines[:begin[0]] + block + lines[end[0] + 1:])


def update(path, tag, block, check):
    """Replace the block in path (or, with check, say how it differs): True
    when the file was already up to date."""
    rel = os.path.relpath(path, ROOT)
    if not os.path.isfile(path):
        raise HelpError("%s: missing (every workload has a page with a generated block)" % rel)
    old = open(path, encoding="utf-8").read()
    new = replace_block(old, tag, block, rel)
    if new == old:
        return True
    if check:
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(True), new.splitlines(True), rel + " (committed)",
            rel + " (from the binary)"))
    else:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
        print("updated %s" % rel)
    return False


def main(argv):
    check = "--check" in argv
    rest = [a for a in argv if a != "--check"]
    clbench = rest[0] if rest else os.environ.get("CLBENCH",
                                                  os.path.join(ROOT, "build-test", "clbench"))
    try:
        found = workloads(clbench)
        ok = update(os.path.join(DOCS, "WORKLOADS.md"), "workloads", render_index(found), check)
        for name, _ in found:
            info = parse_help(name, run(clbench, name, "--help"))
            ok = update(os.path.join(PAGES, name + ".md"), "params", render(name, info),
                        check) and ok
    except HelpError as e:
        print("gen_param_docs: %s" % e, file=sys.stderr)
        return 1
    names = {n for n, _ in found}
    for page in sorted(os.listdir(PAGES)) if os.path.isdir(PAGES) else []:
        if page.endswith(".md") and page[:-3] not in names:
            print("docs/workloads/%s: no workload of that name in 'clbench --help'" % page)
            ok = False
    if check and not ok:
        print("gen_param_docs: the docs differ from the code; run %s and commit the pages"
              % SCRIPT, file=sys.stderr)
    return 0 if ok or not check else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
