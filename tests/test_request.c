/* The request layer's core (include/hwfit/request.h): the option tables of every command
 * are well formed, values parse by kind and bounds, refusals name the option, results
 * follow the buffer contract, and the description is valid JSON listing every option. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "base/internal.h"
#include "hwfit/request.h"
#include "readers/json.h"

static int bounded(hwfit_option_kind k) {
    return k == HWFIT_OPTION_COUNT || k == HWFIT_OPTION_TOKENS || k == HWFIT_OPTION_QUANTITY ||
           k == HWFIT_OPTION_RATIO;
}

Test(request, every_option_table_is_well_formed) {
    size_t ncommands = 0;
    const char *prev_name = "";
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c)) {
        ncommands++;
        cr_assert(strcmp(prev_name, c->name) < 0, "commands in name order: %s", c->name);
        prev_name = c->name;
        cr_assert(c->summary && c->summary[0], "%s: summary", c->name);
        cr_assert(c->formats & (1u << HWFIT_FORMAT_JSON), "%s writes JSON", c->name);
        cr_assert(c->formats & (1u << HWFIT_FORMAT_TEXT), "%s writes a table", c->name);
        cr_assert_eq(hwfit_command_by_name(c->name), c);
        hwfit_request *r;
        cr_assert_eq(hwfit_request_new(c->name, &r), HWFIT_OK, "%s: defaults parse", c->name);
        for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o)) {
            const char *n = o->name;
            cr_assert(n && n[0], "%s: an option without a name", c->name);
            for (const char *p = n; *p; p++)
                cr_assert((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-',
                          "%s --%s: lower case, digits and '-' only", c->name, n);
            cr_assert_eq(hwfit_option_by_name(c, n), o, "%s --%s: unique", c->name, n);
            cr_assert(o->help && o->help[0], "%s --%s: help", c->name, n);
            cr_assert(strstr(o->help, "(default") == NULL,
                      "%s --%s: the help appends the default itself", c->name, n);
            if (bounded(o->kind)) {
                cr_assert(o->min <= o->max && isfinite(o->min), "%s --%s: bounds", c->name, n);
                if (o->kind == HWFIT_OPTION_QUANTITY)
                    cr_assert(o->unit != HWFIT_UNIT_NONE, "%s --%s: a unit", c->name, n);
            }
            if (o->kind == HWFIT_OPTION_CHOICE) {
                cr_assert(o->choices && o->choices[0], "%s --%s: choices", c->name, n);
            } else {
                cr_assert_null(o->choices, "%s --%s: choices only for a choice", c->name, n);
            }
            if (o->flags & HWFIT_OPTION_REQUIRED) {
                cr_assert_null(o->default_text, "%s --%s: required with a default", c->name, n);
                cr_assert(o->example != NULL, "%s --%s: a required option shows an example",
                          c->name, n);
            }
            if (o->example != NULL && o->kind != HWFIT_OPTION_FILE)
                cr_assert_eq(hwfit_request_set(r, n, o->example), HWFIT_OK,
                             "%s --%s: its example %s is taken: %s", c->name, n, o->example,
                             hwfit_request_message(r));
            if (o->kind == HWFIT_OPTION_FLAG)
                cr_assert_null(o->default_text, "%s --%s: a flag is off unless given", c->name, n);
        }
        hwfit_request_free(r);
    }
    cr_assert(ncommands >= 1);
}

Test(request, values_parse_by_kind_and_bounds) {
    hwfit_request *r;
    cr_assert_eq(hwfit_request_new("units", &r), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "unit", "watts"), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "unit", "wats"), HWFIT_ENOTFOUND);
    cr_assert_str_eq(hwfit_request_option(r)->name, "unit");
    cr_assert(strstr(hwfit_request_message(r), "did you mean 'watts'") != NULL, "%s",
              hwfit_request_message(r));
    cr_assert_eq(hwfit_request_set(r, "uint", "watts"), HWFIT_ENOTFOUND);
    cr_assert_null(hwfit_request_option(r));
    cr_assert(strstr(hwfit_request_message(r), "did you mean 'unit'") != NULL);
    /* a success clears the failure */
    cr_assert_eq(hwfit_request_set(r, "value", "3.2kW"), HWFIT_OK);
    cr_assert_str_eq(hwfit_request_message(r), "");
    cr_assert_null(hwfit_request_option(r));
    /* a refused value leaves the old one */
    cr_assert_eq(hwfit_request_set(r, "value", ""), HWFIT_EPARSE);
    char out[512];
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, out, sizeof out, NULL), HWFIT_OK);
    cr_assert(strstr(out, "\"value\": 3200") != NULL, "%s", out);
    hwfit_request_free(r);
}

Test(request, results_follow_the_buffer_contract) {
    hwfit_request *r;
    cr_assert_eq(hwfit_request_new("units", &r), HWFIT_OK);
    char out[512], tiny[8];
    size_t need = 0, len = 0;
    /* a required option missing: refused before anything runs, naming it */
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, out, sizeof out, &need), HWFIT_EINVAL);
    cr_assert_str_eq(hwfit_request_option(r)->name, "value");
    cr_assert(strstr(hwfit_request_message(r), "required") != NULL);
    cr_assert_eq(hwfit_request_set(r, "value", "15.36TB"), HWFIT_OK);
    memset(tiny, 0x5a, sizeof tiny);
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, tiny, sizeof tiny, &need), HWFIT_EBUFSIZE);
    cr_assert_eq(tiny[0], 0x5a, "a buffer too small is left alone");
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, out, need, &len), HWFIT_OK);
    cr_assert_eq(len, need);
    cr_assert_eq(strlen(out) + 1, need);
    const char *kept = hwfit_request_output(r, &len);
    cr_assert_str_eq(kept, out);
    cr_assert_eq(len, need - 1);
    /* another format answers the same question as a table */
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_TEXT, NULL, 0, NULL), HWFIT_OK);
    cr_assert(strstr(hwfit_request_output(r, NULL), "15.36 TB (13.97 TiB)") != NULL);
    /* a format the command does not write */
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_HTML, NULL, 0, NULL), HWFIT_EUNSUPPORTED);
    cr_assert(strstr(hwfit_request_message(r), "no html output") != NULL);
    cr_assert_str_eq(hwfit_request_output(r, NULL), "");
    /* setting an option forgets the result */
    cr_assert_eq(hwfit_request_run(r, HWFIT_FORMAT_JSON, NULL, 0, NULL), HWFIT_OK);
    cr_assert_eq(hwfit_request_set(r, "unit", "bytes"), HWFIT_OK);
    cr_assert_str_eq(hwfit_request_output(r, NULL), "");
    hwfit_request_free(r);
}

Test(request, the_description_is_json_with_every_option) {
    size_t need = 0;
    cr_assert_eq(hwfit_command_describe(NULL, NULL, 0, &need), HWFIT_EBUFSIZE);
    char *text = malloc(need);
    cr_assert_not_null(text);
    cr_assert_eq(hwfit_command_describe(NULL, text, need, NULL), HWFIT_OK);
    hwfit__json_doc *doc;
    hwfit_error err;
    cr_assert_eq(hwfit__json_parse(text, strlen(text), &doc, &err), HWFIT_OK, "%s", err.message);
    const hwfit__json_value *cmds = hwfit__json_get(hwfit__json_root(doc), "commands");
    cr_assert(cmds && cmds->type == HWFIT__JSON_ARRAY);
    size_t i = 0;
    for (const hwfit_command *c = hwfit_command_next(NULL); c; c = hwfit_command_next(c), i++) {
        cr_assert_lt(i, cmds->u.array.count);
        const hwfit__json_value *jc = &cmds->u.array.items[i];
        cr_assert_str_eq(hwfit__json_get(jc, "name")->u.string.text, c->name);
        const hwfit__json_value *opts = hwfit__json_get(jc, "options");
        size_t k = 0;
        for (const hwfit_option *o = hwfit_option_next(c, NULL); o; o = hwfit_option_next(c, o), k++)
            cr_assert_str_eq(hwfit__json_get(&opts->u.array.items[k], "name")->u.string.text, o->name);
        cr_assert_eq(k, opts->u.array.count);
    }
    cr_assert_eq(i, cmds->u.array.count);
    hwfit__json_free(doc);
    free(text);
}
