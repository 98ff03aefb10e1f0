/* xml_check.h - a small XML well-formedness checker for the tests of the SVG and HTML
 * writers (tests/test_svg.c) and the SVG fuzz target (tests/fuzz/fuzz_svg.c).
 * Header-only (static functions): test-only code, never part of the library. */
#ifndef HWFIT_TESTS_XML_CHECK_H
#define HWFIT_TESTS_XML_CHECK_H

#include <string.h>

/* ---- a small XML well-formedness checker ----------------------------------------------
 * Enough XML 1.0 (W3C Recommendation, 5th ed., 2008) for what the charts use: an XML
 * declaration, one root element, nested elements with attributes in double quotes, text,
 * the five predefined entities and numeric references. Anything else (comments, CDATA,
 * DTDs, raw '<' or '&' in text, control characters, bad UTF-8, duplicate attributes,
 * mismatched tags) is reported. Returns NULL when well-formed, else a message. */
static int is_name_start(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
static int is_name_char(int c) {
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static const char *check_entity(const char **pp) {
    static const char *const names[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
    const char *p = *pp + 1;
    for (size_t i = 0; i < 5; i++) {
        if (strncmp(p, names[i], strlen(names[i])) == 0) {
            *pp = p + strlen(names[i]);
            return NULL;
        }
    }
    if (*p == '#') {
        p++;
        int hex = *p == 'x';
        if (hex) p++;
        const char *digits = p;
        while ((*p >= '0' && *p <= '9') ||
               (hex && ((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))))
            p++;
        if (p > digits && *p == ';') {
            *pp = p + 1;
            return NULL;
        }
    }
    return "bad entity reference";
}

static const char *check_utf8(const unsigned char *p) {
    while (*p) {
        unsigned c = *p;
        size_t n = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3
                           : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
        if (n == 0) return "invalid UTF-8 lead byte";
        for (size_t i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80) return "invalid UTF-8 continuation";
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control character";
        p += n;
    }
    return NULL;
}

static const char *xml_check(const char *s) {
    const char *err = check_utf8((const unsigned char *)s);
    if (err) return err;
    char stack[64][64];
    int depth = 0, roots = 0;
    const char *p = s;
    if (strncmp(p, "<?xml ", 6) == 0) {
        p = strstr(p, "?>");
        if (p == NULL) return "unterminated XML declaration";
        p += 2;
    }
    while (*p) {
        if (*p != '<') {
            if (depth == 0 && !(*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
                return "text outside the root element";
            if (*p == '&') {
                if ((err = check_entity(&p)) != NULL) return err;
                continue;
            }
            p++;
            continue;
        }
        p++;
        if (*p == '/') { /* end tag */
            p++;
            const char *name = p;
            while (is_name_char(*p)) p++;
            size_t n = (size_t)(p - name);
            if (depth == 0) return "end tag without start tag";
            depth--;
            if (strlen(stack[depth]) != n || strncmp(stack[depth], name, n) != 0)
                return "mismatched end tag";
            while (*p == ' ' || *p == '\n') p++;
            if (*p++ != '>') return "bad end tag";
            continue;
        }
        if (!is_name_start(*p)) return "bad tag name (comment, CDATA or DTD?)";
        if (depth == 0 && roots++ > 0) return "more than one root element";
        const char *name = p;
        while (is_name_char(*p)) p++;
        size_t n = (size_t)(p - name);
        if (n >= 64 || depth >= 64) return "name or nesting too long for the checker";
        char attrs[32][64];
        int nattrs = 0;
        for (;;) {
            int space = 0;
            while (*p == ' ' || *p == '\n' || *p == '\t') p++, space = 1;
            if (p[0] == '/' && p[1] == '>') {
                p += 2;
                break;
            }
            if (*p == '>') {
                memcpy(stack[depth], name, n);
                stack[depth][n] = '\0';
                depth++;
                p++;
                break;
            }
            if (!space || !is_name_start(*p)) return "bad attribute";
            const char *an = p;
            while (is_name_char(*p)) p++;
            size_t alen = (size_t)(p - an);
            if (alen >= 64 || nattrs >= 32) return "attribute too long for the checker";
            for (int k = 0; k < nattrs; k++)
                if (strlen(attrs[k]) == alen && strncmp(attrs[k], an, alen) == 0)
                    return "duplicate attribute";
            memcpy(attrs[nattrs], an, alen);
            attrs[nattrs++][alen] = '\0';
            if (*p++ != '=') return "attribute without '='";
            char q = *p++;
            if (q != '"' && q != '\'') return "unquoted attribute";
            while (*p != q) {
                if (*p == '\0' || *p == '<') return "bad attribute value";
                if (*p == '&') {
                    if ((err = check_entity(&p)) != NULL) return err;
                } else {
                    p++;
                }
            }
            p++;
        }
        if (*p == '\0' && depth > 0) return "unclosed element";
    }
    if (depth != 0) return "unclosed element";
    if (roots != 1) return "no root element";
    return NULL;
}

#endif /* HWFIT_TESTS_XML_CHECK_H */
