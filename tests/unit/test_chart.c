/* The chart module (include/clb_chart.h) and the escaping of text for HTML
 * (include/clb_text.h): the renderer's data for bars (slots, stacked parts,
 * a bar without a figure keeps its label at the foot), the SVG inliner
 * (ids prefixed; anything gnuplot's SVG terminal does not write refused),
 * cmp_esc for HTML. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clb_chart.h"
#include "clb_text.h"
#include "../fuzz/plot_oracle.h"

static void test_html_escape(void **state)
{
    (void)state;
    struct clb_buf b = {0};
    assert_string_equal(cmp_esc_tmp(&b, "<script>alert(\"x\")</script> & 'y'", CMP_ESC_HTML),
                        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;");
    /* the display form first: a newline, a control byte, a byte that is not UTF-8 */
    assert_string_equal(cmp_esc_tmp(&b, "a\nb\x01\xff<", CMP_ESC_HTML), "a\\nb\\x01\\xff&lt;");
    /* a gnuplot string expression: a text's quote is "'" joined to the strings */
    assert_string_equal(cmp_esc_tmp(&b, "it's `x`", CMP_ESC_GP), "'it'.\"'\".'s `x`'");
    assert_string_equal(cmp_esc_tmp(&b, "''", CMP_ESC_GP), "''.\"'\".''.\"'\".''");
    assert_string_equal(cmp_esc_tmp(&b, "a&#x3c;", CMP_ESC_GP | CMP_ESC_SVG), "'a&#x26;#x3c;'");
    clb_buf_free(&b);
}

/* The property behind every chart's text: for any name (random bytes of
 * quotes, backslashes, ampersands and references, blanks, control bytes,
 * bidi marks, bytes that are not UTF-8), what gnuplot reads from the data
 * field or the script's string expression, written by its SVG terminal and
 * read back by an XML reader (plot_oracle.h, apart from the escaper), is the
 * display form; a PNG shows gnuplot's value as it is. */
static void test_gnuplot_text_property(void **state)
{
    (void)state;
    static const char *const parts[] = {"'", "''", "\"", "\\", "\\n", "&", "&#x", "&#x202e;",
                                        "&#x3c;b&#x3e;", "&amp;", "<b>", "`id`", "@x", " ", "\t",
                                        "\x01", "\x7f", "\xe2\x80\xae", "\xe2\x81\xa6", "\xff",
                                        "\xc3", "\xc3\xa9", "x", "#", "%s", "$(id)"};
    const size_t np = sizeof parts / sizeof *parts;
    unsigned seed = 37;
    struct clb_buf name = {0}, shown = {0}, esc = {0};
    for (int k = 0; k < 3000; k++) {
        name.len = 0;
        clb_buf_add(&name, "", 0);
        for (int j = (int)(rand_r(&seed) % 7); j >= 0; j--) {
            const char *p = parts[rand_r(&seed) % np];
            clb_buf_add(&name, p, strlen(p));
        }
        cmp_esc_tmp(&shown, clb_buf_str(&name), 0);
        for (int t = 0; t < 4; t++) {   /* data, script; PNG, SVG */
            int gp = t & 1, flags = (gp ? CMP_ESC_GP : CMP_ESC_DATA) | (t > 1 ? CMP_ESC_SVG : 0);
            cmp_esc_tmp(&esc, clb_buf_str(&name), flags);
            const char *why = oracle_shows(esc.s, esc.len, gp, t > 1, clb_buf_str(&shown));
            if (why)
                fail_msg("%s: name '%s' as '%s' (flags %d)", why, clb_buf_str(&shown),
                         clb_buf_str(&esc), flags);
        }
    }
    clb_buf_free(&name);
    clb_buf_free(&shown);
    clb_buf_free(&esc);
}

/* Two bar series, the second stacked on the first; a bar without a figure
 * but with a label. */
static void test_bars_data(void **state)
{
    (void)state;
    struct clb_chart c;
    clb_chart_init(&c, "t", "x", "y");
    clb_chart_cat(&c, "a");
    clb_chart_cat(&c, "b");
    struct clb_chart_series *s = clb_chart_series(&c, "dev", CLB_CS_BARS, 1);
    struct clb_chart_series *top = clb_chart_series(&c, "cpu", CLB_CS_BARS, -1);
    top->stack = 1;
    clb_chart_point(&c, s, 0, 10, "C");
    clb_chart_point(&c, s, 1, NAN, "S");
    clb_chart_point(&c, top, 0, 5, NULL);
    struct clb_chart_text t;
    struct clb_chart_out o = {1, 2};
    assert_int_equal(clb_chart_gnuplot(&c, &o, &t), CLB_OK);
    /* one slot of width 0.8: bar a from 0 to 10 (label C), the skipped b at the
     * foot with its label, the stacked part from 10 to 15 */
    assert_string_equal(t.data.s, "x\tdev\tx0\tx1\ty0\tlabel\n"
                                  "0\t10\t-0.4\t0.4\t0\tC\n"
                                  "1\t0\t0.6\t1.4\t0\tS\n\n\n"
                                  "x\tcpu\tx0\tx1\ty0\tlabel\n"
                                  "0\t15\t-0.4\t0.4\t10\t\n\n\n"
                                  "x\tcategories\tx0\tx1\ty0\tlabel\n0\t0\t0\t0\t0\ta\n1\t0\t1\t1\t0\tb\n");
    assert_null(oracle_script(t.script.s, t.script.len));
    assert_null(oracle_data(t.data.s, t.data.len));
    assert_non_null(strstr(t.script.s, "'fig2.dat' index 0 using 1:2:6 with labels"));
    clb_chart_text_free(&t);
    clb_chart_free(&c);
    /* nothing measured: nothing to plot */
    clb_chart_init(&c, "empty", "x", "y");
    clb_chart_series(&c, "guide", CLB_CS_LINES, 0);
    assert_int_equal(clb_chart_gnuplot(&c, &o, &t), CLB_EUSAGE);
    clb_chart_free(&c);
}

static const char svg_ok[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
    "<svg \n viewBox=\"0 0 10 10\"\n xmlns=\"http://www.w3.org/2000/svg\"\n"
    " xmlns:xlink=\"http://www.w3.org/1999/xlink\"\n>\n<title>Gnuplot</title>\n"
    "<defs><path id='gpPt0' d='M-1,0 h2'/></defs>\n"
    "<g fill = 'rgb(1, 2, 3)' filter='url(#textbox)'><use xlink:href='#gpPt0'/>"
    "<text>&lt;script> &amp; x</text></g>\n</svg>\n";

static void test_svg_inline(void **state)
{
    (void)state;
    struct clb_buf b = {0};
    assert_int_equal(clb_svg_inline(&b, svg_ok, strlen(svg_ok), "c7"), CLB_OK);
    assert_null(strstr(b.s, "<?xml"));
    assert_non_null(strstr(b.s, "id='c7-gpPt0'"));
    assert_non_null(strstr(b.s, "xlink:href='#c7-gpPt0'"));
    assert_non_null(strstr(b.s, "filter='url(#c7-textbox)'"));
    assert_non_null(strstr(b.s, "fill='rgb(1, 2, 3)'"));
    assert_non_null(strstr(b.s, "<text>&lt;script> &amp; x</text>"));
    clb_buf_free(&b);
    static const char *const bad[] = {
        "<svg><script>alert(1)</script></svg>",
        "<svg onload='alert(1)'></svg>",
        "<svg><use xlink:href='http://x/y.svg#a'/></svg>",
        "<svg><g fill='url(http://x/p)'></g></svg>",
        "<svg><foreignObject></foreignObject></svg>",
        "<svg><text><![CDATA[<script>]]></text></svg>",
        "<svg><text>a & b</text></svg>",
        "<svg><text x='<b>'>a</text></svg>",
        "<svg xmlns='http://evil/'></svg>",
        "<p>before</p><svg></svg>",
        "<svg><g id='a'",
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        b = (struct clb_buf){0};
        clb_buf_add(&b, "x", 1);
        assert_int_equal(clb_svg_inline(&b, bad[k], strlen(bad[k]), "c1"), CLB_EUSAGE);
        assert_string_equal(b.s, "x");   /* nothing appended */
        clb_buf_free(&b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_html_escape),
        cmocka_unit_test(test_gnuplot_text_property),
        cmocka_unit_test(test_bars_data),
        cmocka_unit_test(test_svg_inline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
