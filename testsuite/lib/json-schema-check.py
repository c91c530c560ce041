#!/usr/bin/env python3
"""json-schema-check.py -- validate a JSON document against a JSON Schema.

Usage: json-schema-check.py SCHEMA FILE

Exit status: 0 if FILE is valid, 1 if it is not (the first error is
printed, with the path of the offending value: $.objects[0].path), 2 if
SCHEMA or FILE cannot be read or parsed, or SCHEMA uses a keyword this
checker does not know -- so that a schema growing a new keyword cannot
be passed without being checked.

Only the keywords tools/sframe-check/sframe-check.schema.json uses are
supported: type (a name or a list of names, "null" among them),
properties, required, additionalProperties (false, or a schema), items
(one schema for every element), enum, minimum, maximum and pattern,
with their JSON Schema 2020-12 meanings; $schema, $id, title and
description are annotations.  Python 3 standard library only, as
sframe-check.exp runs it on the build host.
"""

import json
import math
import re
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description"}
KEYWORDS = {"type", "properties", "required", "additionalProperties",
            "items", "enum", "minimum", "maximum", "pattern"}


class SchemaError(Exception):
    """The schema itself is not one this checker can apply."""


class Invalid(Exception):
    """The document does not match; the message names where."""



def check_keywords(schema, spath):
    """Raise SchemaError unless SCHEMA is an object of known keywords."""
    if not isinstance(schema, dict):
        raise SchemaError("%s: a schema must be an object or a boolean" % spath)
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise SchemaError("%s: unsupported keyword%s %s"
                          % (spath, "s" if len(unknown) > 1 else "",
                             ", ".join(sorted(unknown))))

def is_type(value, name):
    # json.load gives bool for true/false, which Python counts as int.
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float)
                                          and math.isfinite(value)
                                          and value.is_integer())
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    raise SchemaError("unknown type %r" % name)


def json_equal(a, b):
    # JSON's equality: true is not 1, 1 is 1.0.
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return (a.keys() == b.keys()
                and all(json_equal(a[k], b[k]) for k in a))
    return a == b


def type_name(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def check(schema, value, path, spath):
    """Raise Invalid if VALUE at PATH does not match SCHEMA (at SPATH)."""
    if schema is True:
        return
    if schema is False:
        raise Invalid("%s: no value is allowed here" % path)
    check_keywords(schema, spath)

    if "type" in schema:
        types = schema["type"]
        if isinstance(types, str):
            types = [types]
        if not isinstance(types, list) or not types:
            raise SchemaError("%s.type: a name or a list of names" % spath)
        if not any(is_type(value, t) for t in types):
            raise Invalid("%s: %s is not of type %s"
                          % (path, type_name(value), " or ".join(types)))

    if "enum" in schema:
        if not isinstance(schema["enum"], list):
            raise SchemaError("%s.enum: not a list" % spath)
        if not any(json_equal(value, e) for e in schema["enum"]):
            raise Invalid("%s: %s is not one of %s"
                          % (path, json.dumps(value),
                             json.dumps(schema["enum"])))

    if is_type(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            raise Invalid("%s: %s is less than the minimum %s"
                          % (path, json.dumps(value), schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            raise Invalid("%s: %s is greater than the maximum %s"
                          % (path, json.dumps(value), schema["maximum"]))

    if isinstance(value, str) and "pattern" in schema:
        if re.search(schema["pattern"], value) is None:
            raise Invalid("%s: %s does not match the pattern %s"
                          % (path, json.dumps(value), schema["pattern"]))

    if isinstance(value, dict):
        props = schema.get("properties", {})
        if not isinstance(props, dict):
            raise SchemaError("%s.properties: not an object" % spath)
        for key in schema.get("required", []):
            if key not in value:
                raise Invalid("%s: the required property %s is missing"
                              % (path, json.dumps(key)))
        for key, sub in value.items():
            where = "%s.%s" % (path, key)
            if key in props:
                check(props[key], sub, where, "%s.properties.%s" % (spath, key))
            elif "additionalProperties" in schema:
                extra = schema["additionalProperties"]
                if extra is False:
                    raise Invalid("%s: the property %s is not allowed"
                                  % (path, json.dumps(key)))
                check(extra, sub, where, "%s.additionalProperties" % spath)

    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check(schema["items"], item, "%s[%d]" % (path, i),
                  "%s.items" % spath)


def vet(schema, spath):
    """Raise SchemaError if SCHEMA, anywhere in it, uses a keyword or a
    value this checker does not know, even where no document reaches."""
    if isinstance(schema, bool):
        return
    check_keywords(schema, spath)
    types = schema.get("type", [])
    for t in [types] if isinstance(types, str) else types:
        is_type(None, t)
    if not isinstance(schema.get("required", []), list):
        raise SchemaError("%s.required: not a list" % spath)
    if not isinstance(schema.get("enum", []), list):
        raise SchemaError("%s.enum: not a list" % spath)
    for k in ("minimum", "maximum"):
        if k in schema and not is_type(schema[k], "number"):
            raise SchemaError("%s.%s: not a number" % (spath, k))
    if "pattern" in schema:
        try:
            re.compile(schema["pattern"])
        except (re.error, TypeError) as e:
            raise SchemaError("%s.pattern: %s" % (spath, e))
    props = schema.get("properties", {})
    if not isinstance(props, dict):
        raise SchemaError("%s.properties: not an object" % spath)
    for key, sub in props.items():
        vet(sub, "%s.properties.%s" % (spath, key))
    if "additionalProperties" in schema:
        vet(schema["additionalProperties"], "%s.additionalProperties" % spath)
    if "items" in schema:
        vet(schema["items"], "%s.items" % spath)


def no_constant(name):
    raise ValueError("%s is not JSON" % name)


def load(name, what):
    try:
        with open(name, "rb") as f:
            return json.loads(f.read().decode("utf-8"),
                              parse_constant=no_constant)
    except (OSError, UnicodeDecodeError, ValueError) as e:
        print("json-schema-check: %s %s: %s" % (what, name, e), file=sys.stderr)
        sys.exit(2)


def main(argv):
    if len(argv) != 3:
        print("usage: json-schema-check.py SCHEMA FILE", file=sys.stderr)
        return 2
    schema = load(argv[1], "schema")
    doc = load(argv[2], "document")
    try:
        vet(schema, "#")
        check(schema, doc, "$", "#")
    except SchemaError as e:
        print("json-schema-check: schema %s: %s" % (argv[1], e), file=sys.stderr)
        return 2
    except Invalid as e:
        print("json-schema-check: %s: invalid: %s" % (argv[2], e))
        return 1
    print("json-schema-check: %s: valid" % argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
