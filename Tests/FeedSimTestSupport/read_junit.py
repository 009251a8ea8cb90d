"""Reads a JUnit XML file with junitparser, a JUnit reader from PyPI, and
prints what it saw as JSON: every test case with its suite, class name,
name and results (failure, error or skipped, with message and type)."""
import json
import sys

from junitparser import JUnitXml

xml = JUnitXml.fromfile(sys.argv[1])
cases = []
suites = []
for suite in xml:
    suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors})
    for case in suite:
        cases.append({
            "suite": suite.name,
            "classname": case.classname,
            "name": case.name,
            "passed": case.is_passed,
            "results": [{"kind": type(result).__name__, "message": result.message, "type": result.type}
                        for result in case.result],
        })
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "errors": xml.errors, "suites": suites, "cases": cases}))
