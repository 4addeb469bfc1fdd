#!/usr/bin/env python3
"""Regenerates jinja2_probes.json: small templates rendered by Python jinja2
in the environment Hugging Face transformers uses for chat templates
(ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, loopcontrols,
{% generation %}, tojson with ensure_ascii=False, raise_exception,
strftime_now frozen at 2024-07-26 13:05:09). The Go tests compare chattmpl
against the stored results; they do not run Python.

Run: python3 jinja2_probes.py > jinja2_probes.json   (made with jinja2 3.1.6)
"""
import json
import sys
from datetime import datetime

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.ext import loopcontrols

def raise_exception(msg):
    raise jinja2.exceptions.TemplateError(msg)
def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
def strftime_now(fmt):
    return datetime(2024,7,26,13,5,9).strftime(fmt)

from jinja2.ext import Extension
from jinja2 import nodes
class Gen(Extension):
    tags = {"generation"}
    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_gen"), [], [], body).set_lineno(lineno)
    def _gen(self, caller):
        return caller()
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols, Gen])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
env.globals["strftime_now"] = strftime_now


# Known differences, left out here and listed in doc.go: the newline after {% raw %},
# macro varargs/kwargs, loop.depth in nested (non-recursive) loops.
c = []
def a(src, messages=None, tools=None, vars=None):
    d = {"src": src}
    if messages is not None: d["messages"] = messages
    if tools is not None: d["tools"] = tools
    if vars is not None: d["vars"] = vars
    c.append(d)

M1=[{"role":"system","content":"Sys."},{"role":"user","content":"Hi there"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Héllo 🦙"}]
MT=[{"role":"user","content":"weather?"},{"role":"assistant","content":None,"tool_calls":[{"type":"function","function":{"name":"get_weather","arguments":{"city":"Paris","unit":"c"}}}]},{"role":"tool","content":"{\"t\": 21}","name":"get_weather"}]
TOOLS=[{"type":"function","function":{"name":"get_weather","description":"Get the weather","parameters":{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string","enum":["c","f"]}},"required":["city"]}}}]
c=[]
def a(src, messages=None, tools=None, vars=None):
    d={"src":src}
    if messages is not None: d["messages"]=messages
    if tools is not None: d["tools"]=tools
    if vars is not None: d["vars"]=vars
    c.append(d)
# whitespace
a("a\n  {% if true %}\n  b\n  {% endif %}\nc\n")
a("  {%- if true %}x{% endif %}  \n  y")
a("a  {% if true -%}  \n  b{% endif %}")
a("  {{ 'x' }}\n  {% set y = 1 %}\n{{ y }}\n")
a("{% for i in range(3) %}\n  {{ i }}\n{% endfor %}\n")
a("line\n    {%+ if true %}x{% endif %}\n")
a("{# c #}\n  {# d #}\nz")
a("a\n{%- raw %}  {{ x }} {% endraw %}\nb")
a("x\r\n{% if true %}\r\ny{% endif %}\r\n")
a("\t{% if true %}\t\nq{% endif %}")
a("{% if true %}   \nq{% endif %}")
a("end\n\n")
a("{{ 'a' }}\n{{ 'b' }}\n")
# None / undefined
a("{{ none }}|{{ None }}|{{ undefined_thing }}|{{ tools }}")
a("{% for t in undefined_thing %}x{% endfor %}ok")
a("{% for t in tools %}x{% endfor %}ok")
a("{{ 'a' ~ none ~ undefined_thing ~ 1 }}")
a("{{ 'a' + undefined_thing }}")
a("{{ 1 + none }}")
a("{% if undefined_thing %}y{% else %}n{% endif %}{{ undefined_thing is defined }}{{ tools is defined }}{{ tools is none }}{{ undefined_thing is none }}")
a("{{ undefined_thing | default('d') }}|{{ none | default('d') }}|{{ '' | default('d', true) }}|{{ none | default('d', true) }}")
a("{{ (undefined_thing or 'x') }}|{{ none or 'y' }}|{{ 0 and 'z' }}")
a("{{ messages[0].nope is defined }}|{{ messages[0]['nope'] is defined }}|{{ messages[5] is defined }}", M1)
a("{{ messages[1].content.upper() }}|{{ messages[-1].content }}|{{ messages[-1]['role'] }}", M1)
a("{{ messages[1:] | length }}|{{ messages[::-1][0].role }}|{{ messages[:-1] | map(attribute='role') | join(',') }}", M1)
a("{{ undefined_thing.foo }}")
a("{{ none.foo }}")
a("{{ messages | length }}{{ undefined_thing | length }}", M1)
# strings
a("{{ '  ab c  '.strip() }}|{{ 'a,b,c'.split(',') }}|{{ 'abc'.startswith('ab') }}|{{ 'x'.upper() }}|{{ '  y'.lstrip() }}|{{ 'Hello World'.title() }}|{{ 'hello'.capitalize() }}")
a("{{ 'a b  c'.split() }}|{{ 'abc'[1] }}|{{ 'héllo'[1] }}|{{ 'héllo'[1:3] }}|{{ 'abc'[::-1] }}")
a("{% for ch in 'hé' %}[{{ ch }}]{% endfor %}")
a("{{ '%s-%d' % ('a', 3) }}|{{ '{}-{}'.format('a', 2) }}")
a("{{ 'abc' | replace('b', 'X') }}|{{ ' x ' | trim }}|{{ 'ab' | upper }}|{{ 'AB' | lower }}|{{ 'hello world' | capitalize }}|{{ 'a\nb' | indent(2) }}")
a("{{ 'x' * 3 }}|{{ 7 // 2 }}|{{ 7 / 2 }}|{{ 7 % 3 }}|{{ 2 ** 10 }}|{{ 1.0 }}|{{ 1.5e-7 }}|{{ 3 - 5 }}|{{ -3 }}")
a("{{ 1 ~ 2 }}|{{ 'a' ~ 1.5 }}|{{ true }}|{{ [1, 'a', none, true] }}|{{ {'a': 1, 'b': 'x'} }}")
a("{{ 'x' in undefined_thing }}|{{ 1 in [1.0] }}|{{ 'k' in {'k': 1} }}|{{ 'k' not in {'k': 1} }}|{{ true in [1] }}")
a("{{ 'user' in messages | map(attribute='role') | list }}|{{ 'b' in ['a'] + ['b'] }}|{{ 'a' in 'b' ~ 'a' }}|{{ 'a' in ['a'] and 'b' in ['c'] }}|{{ not 'a' in ['a'] }}|{{ 'h' in messages[1].content.lower() }}", M1)
a("{% if 'tool' not in messages | map(attribute='role') %}no tools{% endif %}", M1)
a("{{ 'a' in none }}")
a("{{ 1 in 'abc' }}")
a("{{ 'a' in 3 }}")
a("{{ 'a' in 'cat' }}|{{ 'role' in messages[0] }}|{{ 'zz' in messages[0] }}|{{ 2 in [1,2] }}|{{ 'a' not in ['a'] }}", M1)
# loops
a("{% for m in messages %}{% if loop.first %}F{% endif %}{{ loop.index }}/{{ loop.length }}{% if loop.last %}L{% endif %}{% endfor %}", M1)
a("{% for m in messages if m.role != 'system' %}{{ loop.index0 }}{{ m.role[0] }}{% endfor %}", M1)
a("{% for i in range(10) %}{% if i == 3 %}{% continue %}{% endif %}{% if i > 5 %}{% break %}{% endif %}{{ i }}{% endfor %}")
a("{% for k, v in {'b': 1, 'a': 2}.items() %}{{ k }}={{ v }};{% endfor %}")
a("{% for k in {'b': 1, 'a': 2} %}{{ k }};{% endfor %}")
a("{% for x in [] %}x{% else %}empty{% endfor %}")
a("{% set ns = namespace(found=false, n=0) %}{% for m in messages %}{% if m.role == 'user' %}{% set ns.found = true %}{% set ns.n = ns.n + 1 %}{% endif %}{% endfor %}{{ ns.found }}{{ ns.n }}", M1)
a("{% set x = 1 %}{% for i in range(2) %}{% set x = x + 10 %}{{ x }}{% endfor %}{{ x }}")
a("{% set x = 1 %}{% if true %}{% set x = 2 %}{% endif %}{{ x }}")
# tojson
a("{{ tools | tojson }}", tools=TOOLS)
a("{{ tools[0] | tojson(indent=4) }}", tools=TOOLS)
a("{{ messages | tojson }}", MT)
a("{{ {'a': 'é\"\\n<>&', 'b': [1, 2.5, none, true], 'c': 1e20, 'd': 0.0001, 'e': 1e-5} | tojson }}")
a("{{ 'x' | tojson }}|{{ none | tojson }}|{{ 3 | tojson }}|{{ [] | tojson }}|{{ {} | tojson }}")
a("{{ {'b': 1, 'a': 2} | tojson(sort_keys=true) }}|{{ [1,[2]] | tojson(indent=2) }}")
a("{% for t in tools %}{{ t.function.name }}: {{ t.function.parameters.properties | tojson }}{% endfor %}", tools=TOOLS)
a("{% for m in messages %}{% if m.tool_calls %}{% for tc in m.tool_calls %}{{ tc.function.name }}{{ tc.function.arguments | tojson }}{% endfor %}{% endif %}[{{ m.content }}]{% endfor %}", MT)
a("{{ messages[1].content is none }}|{{ messages[1].content }}|{{ messages[1]['content'] is string }}|{{ messages[0].tool_calls is defined }}", MT)
# filters
a("{{ [3,1,2] | sort | join(',') }}|{{ [1,2,3] | first }}|{{ [1,2,3] | last }}|{{ [1,2,3] | sum }}|{{ ['a','b'] | reverse | join }}|{{ [1,1,2] | unique | list | length }}")
a("{{ messages | selectattr('role', 'equalto', 'user') | list | length }}|{{ messages | rejectattr('role', 'equalto', 'user') | map(attribute='role') | join(',') }}", M1)
a("{{ messages | map(attribute='content') | select('string') | list | length }}", MT)
a("{{ 3.7 | int }}|{{ '4' | int }}|{{ 2 | float }}|{{ 2.567 | round(1) }}|{{ -3 | abs }}|{{ 42 | string }}|{{ [1,2] | string }}")
a("{{ {'b': 1, 'a': 2} | dictsort }}|{{ {'b': 1, 'a': 2} | items | list }}")
a("{{ 'abc' is string }}|{{ 1 is number }}|{{ [1] is iterable }}|{{ {} is mapping }}|{{ 'x' is iterable }}|{{ [] is sequence }}|{{ 1 is integer }}|{{ 1.0 is float }}|{{ true is boolean }}|{{ 3 is odd }}")
a("{{ raise_exception('boom ' ~ 1) }}")
a("{% if messages[0].role == 'system' %}{{ raise_exception('no system') }}{% endif %}x", M1)
a("{{ strftime_now('%d %b %Y') }}|{{ strftime_now('%Y-%m-%d %H:%M:%S') }}|{{ strftime_now('%A %B %-d %I %p %j') }}")
a("{{ bos_token }}|{{ eos_token is defined }}")
a("{% macro f(a, b='x') %}[{{ a }}{{ b }}{{ a is defined }}]{% endmacro %}{{ f(1) }}{{ f(2, 'y') }}{{ f() }}")
a("{% set s %}  block {{ 1 }}  {% endset %}[{{ s }}]")
a("{% filter upper %}abc{% endfilter %}|{% filter trim %}  x  {% endfilter %}")
a("{{ 'yes' if messages else 'no' }}|{% set z = 'a' if false else 'b' %}{{ z }}", M1)
a("{{ messages[0].content if messages[0].content is string else 'list' }}", M1)
a("{{ ('a' if true else 'b') | upper }}|{{ [1 if false else 2, 3] }}|{{ (none if true else 1) }}|{{ (x if false) is defined }}")
a("{% for m in messages %}{{ '<start_of_turn>' + m.role + '\\n' + (m.content | trim if loop.first else '') }}{% endfor %}", M1)
a("{{ [1,2,3][1:] }}|{{ [1,2,3][-2:] }}|{{ (1,2) }}|{{ [1,2] + [3] }}")
a("{{ {'a':1}.get('a') }}|{{ {'a':1}.get('b') }}|{{ {'a':1}.get('b', 5) }}|{{ {'a':1}.get('b') is none }}|{{ {'b':2,'a':1}.keys() | list }}|{{ {'b':2,'a':1}.values() | list }}")
a("{% set l = [1] %}{% do l.append(2) %}{{ l }}")
a("{{ 'a\\nb' }}|{{ \"q'\" }}|{{ 'tab\\t' }}")
a("{% for m in messages %}{{ m.role }}{% if not loop.last %},{% endif %}{% endfor %}", M1)
a("{{ messages[0]['role'] == 'system' and messages[0]['content'] }}", M1)
a("{{ loop }}")
a("{% for m in messages %}{{ loop.previtem.role if loop.previtem else '-' }}{% endfor %}", M1)
a("{{ 10 > none }}")
a("{{ undefined_thing < 3 }}")
a("{% for x in 5 %}{% endfor %}")
a("{{ 'abc' | length }}|{{ 'héllo' | length }}|{{ messages[0] | length }}", M1)
a("{{ '\u00e9' | upper }}|{{ 'ß'.upper() }}")
a("{{ x }}", vars={"x": {"b":1,"a":[1,2]}})
a("{{ enable_thinking }}", vars={"enable_thinking": False})
a("{% if not enable_thinking is defined or enable_thinking %}T{% endif %}")

a("{% if true %}a {{ 1 }}  {% endif %}|")
a("x  {% if true %}y{% endif %}  z")
a("{% for m in messages %}  {{ m.role }}  {% endfor %}|", M1)
a("a\n  {% if true %}  b  {% endif %}  \nc")
a("a\n  {%- if true %}\n  b\n  {%- endif %}\nc")
a("  {% set s %}  block {{ 1 }}  {% endset %}[{{ s }}]")
a("{% set s %}\n  line\n  {% if true %}x{% endif %}\n{% endset %}[{{ s }}]")
a("a {# c #} b\n  {# d #}  \ne")
a("{% macro m() %}\n  inner\n{% endmacro %}\n[{{ m() }}]")
a("{{- '  x  ' -}}  \n  {{ 'y' }}")
a("{% if true %}\n{% endif %}\n\n\nq")
a("{%- for i in range(2) -%}\n  {{ i }}\n{%- endfor %}\n")
a("   text {% if true %}   \n   {% endif %}   more")
a("a\n\t  {% if true -%}\n\n b {%- endif %}")
a("{{ 'a' }}  {% if true %}  b{% endif %}")
a("{% macro m(x) %}<{{ caller() }}{{ x }}>{% endmacro %}{% call m(1) %}body{% endcall %}")
a("{% for i in range(3) %}{{ loop.cycle('a','b') }}{% endfor %}")
a("{% for i in [3,2,1] %}{{ loop.revindex }}{{ loop.revindex0 }}{% endfor %}")
a("{{ messages | map(attribute='role') | join(', ') }}|{{ messages | join(',', attribute='role') }}", M1)
a("{{ 'hello world foo' | truncate(9) }}|{{ 'a b c' | wordcount }}|{{ 'x' | center(5) }}|{{ 'a\nb' | indent(2, true) }}|{{ 'aaa' | replace('a', 'b', 2) }}|{{ 'hello world' | title }}")
a("{{ 6 is divisibleby 3 }}|{{ 1 is eq 1 }}|{{ 2 is in [1,2] }}|{{ none is sameas none }}|{{ 'a' is lower }}|{{ 'A' is upper }}")
a("{{ 'hello'.find('l') }}|{{ 'hello'.replace('l', 'L') }}|{{ 'a.py'.endswith(('.py', '.js')) }}|{{ 'hello'.startswith(('x', 'he')) }}|{{ '{a}-{b}'.format(a=1, b=2) }}|{{ ', '.join(['a', 'b']) }}")
a("{{ {'é': 'ü', 'k': '\\u2028', 't': '\\t', 'z': '\\u0000'} | tojson }}|{{ 'é' | tojson(ensure_ascii=true) }}|{{ '🦙' | tojson(ensure_ascii=true) }}")
a("{{ {'a': {'b': [1, {'c': none}]}} | tojson(indent=2) }}")
a("{{ [1.0, 2.50, 1e100, -0.0, 123456789.123] | tojson }}")
a("{{ strftime_now('%B %d, %Y') }}|{{ strftime_now('%H%M') }}|{{ strftime_now('%a %e %y') }}|{{ strftime_now('%%') }}")
a("{% set a, b = 1, 2 %}{{ a }}{{ b }}")
a("{% for a, b in [(1, 2), (3, 4)] %}{{ a }}{{ b }}{% endfor %}")
a("  {%- if true -%}  \n  x  \n  {%- endif -%}  \n  y")
a("a  {#- c -#}  b\n  {#+ d #}\nc")
a("{% if false %}a{% elif false %}b{% elif true %}c{% else %}d{% endif %}")
a("{{ 1 is not none }}|{{ 'a' not in 'b' }}|{{ not true }}|{{ not none }}")
a("{{ 1 < 2 < 3 }}|{{ 3 > 2 > 5 }}|{{ 1 < 3 < 2 }}|{{ (1 < 3) < 2 }}|{{ 3 > 2 > 1 == 1 }}|{{ [0 <= 1 < 2] }}")
a("{{ -7 // 2 }}|{{ -7 % 3 }}|{{ 7 % -3 }}|{{ 2 ** -1 }}|{{ 2.5 // 1 }}|{{ 10 / 4 }}|{{ 1e3 }}|{{ 0.1 + 0.2 }}")
a("{{ 'x' | int }}|{{ '3.5' | float }}|{{ 2.5 | round }}|{{ 3.14159 | round(2, 'floor') }}|{{ -2 | abs }}")
a("{{ {'a':1,'b':2} | length }}|{{ 'abc' | first }}|{{ 'abc' | last }}|{{ 'abc' | list }}|{{ [3,1,2] | sort(reverse=true) }}|{{ [1,2,3] | max }}|{{ [1,2,3] | min }}")
a("{{ messages | sort(attribute='role') | map(attribute='role') | join(',') }}", M1)
a("{{ [{'n': 1}, {'n': 2}] | sum(attribute='n') }}|{{ [] | first }}|{{ none | default('a') | default('b') }}")
a("{{ '<b>' | e }}|{{ '<b>' | safe }}|{{ '<b>' | escape }}|{{ ' xx ' | trim }}|{{ 'xxaxx' | trim('x') }}")
a("{% generation %}gen {{ 1 }}{% endgeneration %}|{% for m in messages %}{% if m.role == 'assistant' %}{% generation %}{{ m.content }}{% endgeneration %}{% endif %}{% endfor %}", M1)
a("{% set x = 5 %}{% generation %}{% set x = 6 %}{% endgeneration %}{{ x }}")
a("{{ bos_token }}{{ eos_token }}", vars={})
a("{{ messages[0]['content'][:3] }}|{{ messages[-1]['content'][-1] }}|{{ messages[1].content[0] }}", M1)
a("{% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% else %}{% set loop_messages = messages %}{% endif %}{{ loop_messages | length }}", M1)
a("{{ messages[0] }}", M1)
a("{{ messages[0].items() | list }}", M1)
a("{% for k, v in messages[0].items() %}{{ k }}={{ v }} {% endfor %}", M1)
a("{{ (messages | selectattr('role', 'eq', 'user') | first).content }}", M1)
a("{{ messages | selectattr('role', 'in', ['user', 'system']) | list | length }}", M1)
a("{{ [1, 2, 3] | select('odd') | list }}|{{ [1, 2, 3] | reject('odd') | list }}|{{ ['a', 'B'] | map('upper') | list }}")
a("{{ 'a' ~ [1] ~ {'k': none} }}")
a("{{ [1, 2] | join }}|{{ [1, none] | join('-') }}")
a("{{ range(3) | list }}|{{ range(1, 7, 2) | list }}|{{ range(5, 0, -2) | list }}")
a("{{ 'multi\nline' }}\n{% if true %}\n  indented\n{% endif %}\ntrailing   \n")
a("{{ \"it's\" }}|{{ ['it\\'s', 'a\"b', 'both\\'\"'] }}")
a("{{ 1 == 1.0 }}|{{ 'a' == 'a' }}|{{ [1] == [1] }}|{{ none == none }}|{{ undefined_thing == none }}")
a("{{ true + 1 }}|{{ 3 * 'ab' }}|{{ [0] * 3 }}")
a("{{ {'a': 1}['a'] }}|{{ {'a': 1}.a }}|{{ {'a': 1}['b'] is defined }}")
a("{{ x['b'] }}{{ x.a[1] }}", vars={"x": {"b":1,"a":[1,2]}})
a("{{ 'Hello' | replace('l', '') }}|{{ 'a-b-c'.split('-', 1) }}|{{ 'a-b-c'.rsplit('-', 1) }}|{{ '  a  b '.split() }}|{{ 'abc'.upper().lower() }}")
a("{{ '%05.2f|%-4s|%x|%r' % (3.14159, 'ab', 255, 'q') }}")
a("{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}")
a("{% for m in messages %}{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('alt') }}{% endif %}{% endfor %}ok", [{"role":"user","content":"a"},{"role":"user","content":"b"}])
a("{{ undefined_fn('x') }}")
a("{{ [1].replace('a', 'b') }}")
a("{{ 'x'.nosuch() }}")
a("{{ none.strip() }}")
a("{{ messages.foo.bar }}", M1)
a("{% for x in none %}{% endfor %}")
a("{{ 'a' + 1 }}")
a("{{ [1] + none }}")
a("{% set ns = namespace(items=[]) %}{% for i in range(3) %}{% set ns.items = ns.items + [i] %}{% endfor %}{{ ns.items }}")
a("{{ tools | length if tools else 0 }}")

out = []
for case in c:
    ctx = dict(messages=case.get("messages", []), tools=case.get("tools"), documents=None, add_generation_prompt=True)
    ctx.update(case.get("vars", {}))
    r = dict(case)
    try:
        r["want"] = env.from_string(case["src"]).render(**ctx)
    except Exception as e:
        r["error"] = type(e).__name__ + ": " + str(e)
    out.append(r)
json.dump({"jinja2": jinja2.__version__, "cases": out}, sys.stdout, ensure_ascii=False, indent=1)
