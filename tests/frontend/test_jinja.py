"""The Jinja2 environment of the live fragment (frontend/jinja.py) reads a template as Django did."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils.safestring import mark_safe

JINJA = engines["jinja2"]


def render(source: str, **context) -> str:
    return JINJA.from_string(source).render(context)


def test_a_dict_s_key_comes_before_its_attribute_as_in_django():
    assert render("{{ c.items }}|{{ c.values }}|{{ c.name }}", c={"items": 3, "values": "v", "name": "n"}) == "3|v|n"


def test_missing_values_render_as_nothing_however_deep():
    assert render("[{{ nothing }}][{{ board.no.such.key }}][{% if board.x.y %}yes{% endif %}]", board={}) == "[][][]"


def test_add_makes_whole_numbers_as_django_s_add_did():
    assert render("{{ x|add(10) }} {{ y|add(-8) }} {{ missing|add(4) }}", x=20.0, y=7) == "30 -1 "


def test_values_are_escaped_and_django_s_safe_strings_stay_safe():
    html = render("{{ evil }} {{ fine }}", evil='<script>"x"</script>', fine=mark_safe("<b>ok</b>"))
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>ok</b>" in html


def test_the_django_filters_and_url_helper():
    assert render("{{ n|pluralize }} {{ 2|pluralize('is,are') }} {{ 1.25|floatformat(1) }} {{ 'abc'|capfirst }}", n=2) \
        == "s are 1.3 Abc"
    assert render("{{ url('frontend:match', 7) }}") == "/matches/7/"


@pytest.mark.django_db
def test_a_django_page_draws_a_jinja_template_with_its_context():
    page = engines["django"].from_string('{% load jinja %}<main>{% jinja "frontend/partials/result_rows.html" %}</main>')
    rows = [{"place": 1, "winner": True, "score": 2, "player": {"colour": 0, "number": 1, "name": "<ann>", "is_you": True}}]
    html = page.render({"result": {"rows": rows}})
    assert html.startswith("<main>") and '<li class="winner">' in html and "&lt;ann&gt; (you)" in html
    assert "2 points" in html
