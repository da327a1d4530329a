#!/usr/bin/env python3
"""No function of platforms/ is longer than 80 lines, from the first line of its declaration to
its closing brace (docs/architecture.md): a command reads as a list of named steps, a platform
as a netlist. Prints each function over the limit and the longest one, exits 1 if one is over.

A scanner, not a compiler: comments, string, character and raw string literals and preprocessor
lines are blanked first, then braces are matched. A brace opens a scope (namespace, extern "C",
class, struct, union, enum: scanned on inside), a function body (its statement has parentheses
closed before the brace: a function, constructor with its initialisers, operator, lambda or
TEST) or data (a brace initialiser: skipped). Lambdas and local classes count in the function
that holds them. Neither Debian bookworm's python3-clang (a whole parse of every translation
unit, minutes of CPU for one ctest) nor lizard (not packaged) is used.
Usage: check_function_length.py ROOT [--limit N] [--top N]"""
import argparse
import pathlib
import re
import sys

SCOPE = re.compile(r'^(?:(?:inline\s+)?namespace\b[\w:\s]*|extern\s*""|(?:template\s*<.*>\s*)?'
                   r'(?:typedef\s+)?(?:class|struct|union|enum)\b[^()]*)$', re.S)
ACCESS = re.compile(r'\s*(?:(?:public|protected|private)\s*:(?!:)\s*)*')
NAME = re.compile(r'((?:~?[A-Za-z_]\w*|operator\s*[^\s(]+)(?:\s*::\s*~?[A-Za-z_]\w*)*)'
                  r'\s*(?:<[^()]*>)?\s*\($')


def blank(text):
    """text with comments, literals and preprocessor lines as spaces; newlines are kept, so a
    position has its line. A literal keeps its quotes (`extern ""` stays recognisable)."""
    out = list(text)
    n = len(text)
    i = 0
    line_start = True

    def clear(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if line_start and c == "#":  # a directive, with its continuation lines
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            clear(i, j)
            i = j
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            clear(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            clear(i, j)
            i = j
        elif c == '"':
            m = re.search(r'(?:\b(?:u8|u|U|L)?R)$', text[max(0, i - 3):i])
            if m:  # raw string R"delim( ... )delim"
                open_paren = text.find("(", i)
                delim = text[i + 1:open_paren]
                j = text.find(")" + delim + '"', open_paren)
                j = n if j < 0 else j + len(delim) + 1
            else:
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
            clear(i + 1, j)
            i = j + 1
        elif c == "'":
            tok = re.search(r"[\w.']*$", text[:i]).group(0)
            if tok[:1].isdigit():  # a digit separator: 1'000'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            clear(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def closing(text, i):
    """Index of the brace matching the one at i."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced braces")


def open_parens(s):
    depth = 0
    for c in s:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
    return depth


def functions(text):
    """(first line, last line, name) of every function body outside another function."""
    code = blank(text)
    found = []
    stmt = 0  # where the statement before the next brace starts
    i = 0
    while i < len(code):
        c = code[i]
        if c == ";":
            stmt = i + 1
        elif c == "}":  # the end of a scope
            stmt = i + 1
        elif c == "{":
            stmt = ACCESS.match(code, stmt).end()  # a label is not part of what follows
            head = code[stmt:i].strip()
            if SCOPE.match(head) and "=" not in head:
                stmt = i + 1
            elif is_function_head(head):
                end = closing(code, i)
                first = code.count("\n", 0, stmt) + 1
                found.append((first, code.count("\n", 0, end) + 1, name_of(head)))
                i = end
                stmt = end + 1
            else:
                i = closing(code, i)  # data: a brace initialiser
        i += 1
    return found


def is_function_head(head):
    """Whether the brace after head opens a function body, not a brace initialiser."""
    if "(" not in head or open_parens(head) != 0 or head.endswith(("=", ",")):
        return False
    if head.endswith("}"):  # a constructor whose last initialiser is braced
        return True
    # After the parameter list: qualifiers or a trailing return type, not ": m_x" or ", m_y"
    # (a braced member initialiser of a constructor).
    return not head[head.rindex(")") + 1:].strip().startswith((":", ","))


def name_of(head):
    """The declared name: what stands before the parameter list."""
    depth = 0
    for k, c in enumerate(head):
        if c in "<":
            depth += 1
        elif c == ">" and depth:
            depth -= 1
        elif c == "[" and depth == 0:
            return "lambda"
        elif c == "(" and depth == 0:
            m = NAME.search(head[:k + 1])
            return m.group(1).replace(" ", "") if m else head[:k].split()[-1:][0]
    return "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("--top", type=int, default=0, help="also list the N longest")
    a = ap.parse_args()
    root = pathlib.Path(a.root)
    all_fns = []
    for path in sorted((root / "platforms").glob("**/*")):
        if path.suffix not in (".h", ".cpp") or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        try:
            fns = functions(path.read_text(errors="replace"))
        except ValueError as e:
            print(f"{rel}: cannot scan: {e}")
            return 1
        all_fns += [(last - first + 1, rel, first, name) for first, last, name in fns]
    over = [f for f in all_fns if f[0] > a.limit]
    for length, rel, first, name in sorted(over, key=lambda f: (f[1], f[2])):
        print(f"{rel}:{first}: {name}() is {length} lines (limit {a.limit})")
    ranked = sorted(all_fns, key=lambda f: -f[0])
    for length, rel, first, name in ranked[:a.top]:
        print(f"  {length:4} {rel}:{first} {name}")
    if ranked:
        length, rel, first, name = ranked[0]
        print(f"longest: {rel}:{first}: {name}() {length} lines")
    print(f"{len(all_fns)} functions checked, {len(over)} function(s) over {a.limit} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
