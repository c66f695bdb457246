#!/usr/bin/env python3
"""Fails when a source file under src/ is longer than 800 lines or a function in one is longer
than 100 (issue 28 item 7). `--files` checks only the files, `--functions` only the functions;
`--list N` prints the N longest functions instead of checking.

A function runs from the first line of its declaration (return type, template line) to its
closing brace; lambdas and local classes inside it count toward it. Functions are found at
namespace scope, as members defined out of class (Class::name) and inside class bodies;
namespace, class, struct, union and enum bodies and braced initialisers (tables, lambdas
assigned to variables) are not functions. Comments, string and character literals and
preprocessor lines are blanked first, so braces inside them do not count.

Every file and function that was over its limit when the checks were added has been split;
there are no exceptions left.
"""
import os
import re
import sys

FILE_LIMIT = 800
FUNCTION_LIMIT = 100
SOURCE_SUFFIXES = (".cpp", ".h", ".hpp", ".inl")

CONTAINER = re.compile(r"^(?:template\s*<.*>\s*)?(?:namespace|struct|class|union|extern)\b")
ENUM = re.compile(r"^(?:typedef\s+)?enum\b")
ACCESS = re.compile(r"^\s*(?:public|private|protected)\s*:(?!:)")
NAME = re.compile(r"(operator\s*\(\s*\)|operator\s*[^\s\w(]+|operator\s+[\w:]+|~?[A-Za-z_][\w:~]*)"
                  r"\s*(?:<[^()]*>)?\s*$")


def blank(text):
    """Comments, literals and preprocessor lines as spaces; newlines kept."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # Preprocessor line, with its backslash continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append('"' + "".join(ch if ch == "\n" else " " for ch in text[i + 1:end - 1]) + '"')
            i = end
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n and text[j] == c else ""))
            i = j + 1 if j < n and text[j] == c else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level(header):
    """The header with everything inside (), [] and <> of templates dropped."""
    out, depth = [], 0
    for ch in header:
        if ch in "([":
            depth += 1
            if depth == 1:
                out.append(ch)
        elif ch in ")]":
            depth = max(0, depth - 1)
            if depth == 0:
                out.append(ch)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def classify(header):
    """'function' NAME, 'container' or 'other' for the text before a '{'."""
    h = ACCESS.sub("", header).strip()
    if not h:
        return "other", None
    if ENUM.match(h):
        return "other", None
    if CONTAINER.match(h) and "(" not in h.split("{")[0].split(":")[0]:
        return "container", None
    flat = top_level(h)
    # Braced initialisers: `T x[] = {`, `auto f = [](...) {`, `T x{`.
    if re.search(r"(?<![=!<>+\-*/%&|^])=(?!=)", flat.replace("operator=", "operator")):
        return "other", None
    if "(" not in flat:
        return "other", None
    # The name before the parameter list: the first top-level '(' that follows a name.
    for m in re.finditer(r"\(", flat):
        before = flat[:m.start()]
        if before.rstrip().endswith(":") and not before.rstrip().endswith("::"):
            break  # a constructor's initialiser list starts here
        name = NAME.search(before.rstrip())
        if name:
            token = re.sub(r"\s+", "", name.group(1))
            if token in ("if", "for", "while", "switch", "catch", "return", "sizeof"):
                return "other", None
            return "function", token
    return "other", None


def functions(text):
    """(name, first line, last line) of each function body in `text` (1-based)."""
    clean = blank(text)
    found = []
    header_start = 0  # offset where the current declaration's text begins

    def scan(pos, container):
        nonlocal header_start
        header_start = pos
        n = len(clean)
        while pos < n:
            c = clean[pos]
            if c == ";":
                header_start = pos + 1
            elif c == "}":
                if container:
                    return pos + 1
                header_start = pos + 1
            elif c == "{":
                header = clean[header_start:pos]
                kind, name = classify(" ".join(header.split()))
                end = match_brace(pos)
                if kind == "container":
                    end = scan(pos + 1, True)
                elif kind == "function":
                    access = ACCESS.match(header)
                    skip = access.end() if access else 0
                    first = header_start + len(header) - len(header[skip:].lstrip())
                    found.append((name, clean.count("\n", 0, first) + 1,
                                  clean.count("\n", 0, end - 1) + 1))
                pos = end
                header_start = end
                continue
            pos += 1
        return pos

    def match_brace(pos):
        depth = 0
        for k in range(pos, len(clean)):
            if clean[k] == "{":
                depth += 1
            elif clean[k] == "}":
                depth -= 1
                if depth == 0:
                    return k + 1
        return len(clean)

    scan(0, False)
    return found


def sources(root):
    """(path relative to root with '/', text) of every source file under root, sorted."""
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(SOURCE_SUFFIXES):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    yield os.path.relpath(path, root).replace(os.sep, "/"), f.read()


def function_rows(root):
    """(length, file, first line, name) of every function under root."""
    return [(last - first + 1, rel, first, fn)
            for rel, text in sources(root) for fn, first, last in functions(text)]


def file_failures(root):
    failures = []
    for rel, text in sources(root):
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > FILE_LIMIT:
            failures.append(f"{rel}: {lines} lines (limit {FILE_LIMIT})")
    return failures


def function_failures(root):
    return [f"{rel}:{line}: {fn} is {length} lines (limit {FUNCTION_LIMIT})"
            for length, rel, line, fn in sorted(function_rows(root)) if length > FUNCTION_LIMIT]


def main():
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        count = int(args[1]) if len(args) > 1 else 25
        root = args[2] if len(args) > 2 else "src"
        for length, rel, line, fn in sorted(function_rows(root), reverse=True)[:count]:
            print(f"{length:4} {rel}:{line} {fn}")
        return 0
    modes = {a for a in args if a in ("--files", "--functions")} or {"--files", "--functions"}
    rest = [a for a in args if a not in ("--files", "--functions")]
    root = rest[0] if rest else "src"
    failures = (file_failures(root) if "--files" in modes else []) + \
        (function_failures(root) if "--functions" in modes else [])
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
