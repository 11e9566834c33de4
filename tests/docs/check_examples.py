#!/usr/bin/env python3
"""Every command README.md and docs/ show is run (ctest docs_examples).

    check_examples.py SOURCE_ROOT CLBENCH [--list]

A command is a line of a fenced block that starts with clbench, ./bench.sh,
mpirun, srun, cmake, man, python3 or bash (after an optional "$ " prompt, with
environment assignments before it and "\\" continuations joined, a trailing
"# comment" dropped), and an inline `clbench ...` span that is a whole command
(a span that only names a command or an option, `clbench compare --plot`, is a
name). The lines a block shows after a command, up to the next, are its
output.

Each runs in a scratch directory beside links to the tree's results/, tests/,
platforms/ and scripts/, with the program cache in the scratch directory and
clbench on PATH, as written, but:

- `clbench run` plans (--dry-run: options, devices, sizes and parameters all
  checked, nothing measured) unless it is a --quick run of named workloads, which
  runs; its shown output is a run's and is not compared.
- The files examples name as if the reader had them are the committed ones:
  h100.csv and h200.csv the 2026-11-23 suites, new.csv / old.csv / base.csv the
  gate fixtures, rows.jsonl the gate's JSON Lines, h200-halo.csv the halo rows.

Where a block shows output, every line of it appears in the command's stdout
and stderr, in order, once numbers are masked ("numbers may differ; the shape
may not"); a shown `clbench: ...` error line means the command is expected to
fail. Skipped, each with its reason and counted: a synopsis (placeholders such
as FILE, WORKLOAD, N, "...", [optional] or a|b alternatives), what builds or
installs (./bench.sh, cmake, man: CI runs ./bench.sh test itself), what needs
MPI (a command starting with mpirun or srun: the convention), what needs a GPU
(a command with -d gpu, or a trailing "# needs a GPU" comment: the convention),
Rusticl where it is not registered, and a command whose input a run above it
makes (not committed). Exit 1 when a command fails or its output's shape
differs, 0 otherwise; the counts are printed either way.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

START = re.compile(r"^(?:[A-Z_]+=\S+\s+)*(?:clbench(?=\s|$)|\./bench\.sh\b|mpirun\b|srun\b|"
                   r"cmake\b|man\b|python3\s|bash\s)")
FIXTURES = {
    "h100.csv": "results/runs/2026-11-23/h100-suite-4.csv",
    "h200.csv": "results/runs/2026-11-23/h200-suite-3.csv",
    "h100-suite-4.csv": "results/runs/2026-11-23/h100-suite-4.csv",
    "h200-suite-3.csv": "results/runs/2026-11-23/h200-suite-3.csv",
    "new.csv": "tests/data/gate/tuned.csv",
    "old.csv": "tests/data/gate/base.csv",
    "base.csv": "tests/data/gate/base.csv",
    "rows.jsonl": "tests/data/gate/tuned.jsonl",
    "h200-halo.csv": "results/runs/2026-11-25/h200-halo.csv",
    "h200x2-mpi.csv": "results/runs/2026-11-23/h200x2-mpi.csv",
}
# Where a page needs another file under a name (README's gate passes: its
# comment says what a regression does; COMPARE.md's shows one)
PAGE_FIXTURES = {"README.md": {"new.csv": "tests/data/gate/identical.csv"}}
LINKS = ["results", "tests", "platforms", "scripts", "cl", "docs"]


def fixtures(rel, work):
    """Put the page's own fixtures in place (and the common ones back); no
    environment to add."""
    for name, src in dict(FIXTURES, **PAGE_FIXTURES.get(rel, {})).items():
        shutil.copy(os.path.join(ROOT, src), os.path.join(work, name))
    return {}


def doc_files(root):
    return ["README.md"] + sorted(os.path.relpath(p, root) for p in
                                  glob.glob(os.path.join(root, "docs", "*.md")) +
                                  glob.glob(os.path.join(root, "docs", "workloads", "*.md")))


def strip_comment(cmd):
    """The command without a trailing "  # comment" (a # inside a word stays)."""
    m = re.search(r"\s+#\s", cmd)
    return (cmd[:m.start()], cmd[m.end():]) if m else (cmd, "")


def blocks(text):
    """(line number, command, comment, shown output lines) of each fenced block."""
    for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        first = text[:m.start()].count("\n") + 2
        lines = m.group(1).split("\n")
        i, cur = 0, None
        while i < len(lines):
            raw = lines[i]
            line = raw.strip()
            if line.startswith("$ "):
                line = line[2:]
            if START.match(line) and not line.startswith("clbench:") and \
                    "   " not in strip_comment(line)[0].strip():   # not a table's row
                if cur:
                    yield cur
                no = first + i
                while line.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    line = line[:-1] + " " + lines[i].strip()
                cmd, comment = strip_comment(line)
                cur = (no, cmd.strip(), comment, [])
            elif cur is not None and line:
                cur[3].append(raw)
            i += 1
        if cur:
            yield cur


def inline(text):
    """(line number, command, refused) of each inline `clbench ...` span
    outside blocks; refused: the words after it say it "is refused"."""
    plain = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    for m in re.finditer(r"`((?:[A-Z_]+=\S+ )*clbench [^`]+)`", plain):
        after = " ".join(plain[m.end():m.end() + 40].split())
        yield (plain[:m.start()].count("\n") + 1, " ".join(m.group(1).split()),
               after.startswith(("is refused", "are refused", "refuses", "fails")))


def synopsis(cmd):
    """Why cmd is a synopsis rather than a command, or None."""
    if re.search(r"\.\.\.|…|\[|\]|\{|\}", cmd):
        return "a synopsis (... or [optional] parts)"
    if re.search(r"(?<![\w.-])(FILE|FILES|WORKLOADS?|MODEL|N|S|G|KEY|VALUE|PCT|DEV|NAME|W|K|T|R|"
                 r"PROFILE|KERNEL|TYPE|SIZE|LATTICE|OUT|OLD|NEW|SCRATCH|ARGS|DIR)(?![\w-])", cmd) or \
            re.search(r"\b[A-Z]{2,}\.(csv|html|svg|png|jsonl)\b", cmd):
        return "a synopsis (placeholders)"
    if re.search(r"[\w=]\|[\w]", cmd.replace("||", "")) and " | " not in cmd:
        return "a synopsis (a|b alternatives)"
    if re.search(r"<[a-z][\w-]*>", cmd):
        return "a synopsis (<placeholders>)"
    return None


def a_name(cmd):
    """An inline span that names a command, a model or an option (`clbench
    compare --plot`, `clbench model blockeq --sim`) rather than a whole
    invocation: none of the arguments that make one concrete -- a file, a
    size, a device, a type, a profile, a parameter, a workload list -- and not
    one of the commands that need none (list, profiles, cache, --help)."""
    words = cmd.split()
    if len(words) < 2 or words[1] in ("list", "profiles", "cache", "--help", "--version") or \
            "--help" in words:
        return False
    concrete = {"-s", "--size", "-d", "--device", "-t", "--type", "-p", "--profile", "--param",
                "-o", "--output", "-k", "--kernel", "-w", "--workload", "--results", "--ceilings",
                "--quick", "-n", "--reps"}
    valued = any(w in concrete and (w == "--quick" or (i + 1 < len(words) and not
                                                        words[i + 1].startswith("-")))
                 for i, w in enumerate(words))
    if valued or any(re.search(r"[/,]|\.(csv|jsonl)$", w) for w in words[2:]):
        return False
    return not (words[1] == "run" and len(words) > 2 and words[2] == "all")


def skip_reason(cmd, comment, env):
    if re.match(r"^(\./bench\.sh|cmake|man)\b", cmd):
        return "builds or installs (CI runs ./bench.sh test itself)"
    if re.match(r"^(mpirun|srun)\b", cmd):
        return "needs MPI: ranks with a device each"
    if re.search(r"(^|\s)-d\s+gpu\b", cmd) or "needs a GPU" in comment:
        return "needs a GPU"
    if ("RUSTICL_ENABLE" in cmd or re.search(r"-d\s+llvmpipe\b", cmd)) and not env["rusticl"]:
        return "needs Rusticl (mesa-opencl-icd, RUSTICL_ENABLE=llvmpipe)"
    return synopsis(cmd)


def prepare(cmd, made, shown):
    """The command as run: clbench from PATH, a run planned (--dry-run) unless
    it is a --quick run of named workloads whose rows a pipe reads or whose
    output the doc shows. None, reason when an input is missing."""
    parts = re.split(r"(\s*\|\s*)", cmd)
    out = []
    for p in parts:
        words = p.split()
        if "clbench" in words and words[words.index("clbench") + 1:][:1] == ["run"]:
            i = words.index("run")
            real = "--quick" in words and words[i + 1:i + 2] != ["all"] and (len(parts) > 1 or shown)
            if not real and "--dry-run" not in words:
                p = p + " --dry-run"
        out.append(p)
    for w in re.findall(r"(?:^|[\s,])([\w./-]+\.(?:csv|jsonl))\b", cmd):
        if re.search(r"(-o|--output|--report)\s+" + re.escape(w), cmd):
            continue
        if w in made:
            return None, "its input %s is made by a run above it (planned here, not run)" % w
        if "*" not in w and not os.path.exists(w):
            return None, "its input %s is no committed file" % w
    return "".join(out), None


def mask(line):
    """A line's shape: numbers masked, spaces collapsed."""
    line = re.sub(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?", "#", line)
    line = re.sub(r"#(\s*#)+", "#", line)
    return " ".join(line.split())


def shape_ok(shown, got):
    """Every shown line (masked) appears in the output, in order; a line of
    dots stands for any lines."""
    got = [mask(l) for l in got.splitlines() if l.strip()]
    j = 0
    for line in shown:
        want = mask(line)
        if not want or re.fullmatch(r"(\.\.\.|…)", want):
            continue
        while j < len(got) and got[j] != want:
            j += 1
        if j == len(got):
            return "shown line not in the output: %r" % line.strip()
        j += 1
    return None


ROOT = None


def main(argv):
    global ROOT
    root, clbench = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    ROOT = root
    listing = "--list" in argv
    work = tempfile.mkdtemp(prefix="clb-docs-")
    try:
        for name in LINKS:
            os.symlink(os.path.join(root, name), os.path.join(work, name))
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        os.symlink(clbench, os.path.join(bindir, "clbench"))
        for name, src in FIXTURES.items():
            shutil.copy(os.path.join(root, src), os.path.join(work, name))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
                   XDG_CACHE_HOME=os.path.join(work, "cache"), TMPDIR=work)
        os.chdir(work)
        lst = subprocess.run(["clbench", "list", "--wide"], env=dict(env, RUSTICL_ENABLE="llvmpipe"),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
        have = {"rusticl": "llvmpipe" in lst.stdout}
        ran, skipped, failed = 0, {}, []
        for rel in doc_files(root):
            text = open(os.path.join(root, rel), encoding="utf-8").read()
            items = [(no, cmd, comment, shown, "block") for no, cmd, comment, shown in blocks(text)]
            items += [(no, cmd, "", ["clbench: (refused)"] if refused else [], "inline")
                      for no, cmd, refused in inline(text)]
            made = set()
            for no, cmd, comment, shown, kind in items:
                where = "%s:%d" % (rel, no)
                if kind == "inline" and a_name(cmd):
                    skipped.setdefault("an inline name of a command, not a whole one", []).append(where)
                    continue
                why = skip_reason(cmd, comment, have)
                run_cmd = None
                if not why:
                    run_cmd, why = prepare(cmd, made, shown)
                for w in re.findall(r"(?:-o|--output)\s+(\S+)", cmd):
                    made.add(w)
                if why:
                    skipped.setdefault(why, []).append(where)
                    if listing:
                        print("skip %s: %s (%s)" % (where, cmd, why))
                    continue
                if listing:
                    print("run  %s: %s" % (where, run_cmd))
                expect_fail = any(l.strip().startswith("clbench: ") for l in shown)
                try:
                    rusticl = {"RUSTICL_ENABLE": "llvmpipe"} if "llvmpipe" in run_cmd else {}
                    p = subprocess.run(["bash", "-c", "set -o pipefail; " + run_cmd],
                                       env=dict(env, **fixtures(rel, work), **rusticl),
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       universal_newlines=True, timeout=120)
                    out, rc = p.stdout, p.returncode
                except subprocess.TimeoutExpired:
                    out, rc = "(timed out after 120 s)", -1
                ran += 1
                bad = None
                if expect_fail and rc == 0:
                    bad = "shown failing, exit 0"
                elif not expect_fail and rc != 0:
                    bad = "exit %d: %s" % (rc, " / ".join(out.strip().splitlines()[-3:]))
                elif shown and "--dry-run" not in run_cmd and kind == "block":
                    bad = shape_ok(shown, out)
                if bad:
                    failed.append("%s: %s\n    %s" % (where, cmd, bad))
        print("docs_examples: %d commands run, %d skipped:" % (ran, sum(map(len, skipped.values()))))
        for why, wh in sorted(skipped.items()):
            print("  %3d %s" % (len(wh), why))
        for f in failed:
            print("FAIL " + f)
        return 1 if failed else 0
    finally:
        os.chdir("/")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
