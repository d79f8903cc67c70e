/* lessons/common/json.h - a small streaming JSON writer for --json output.
 * Not a parser. Keys are written as given (callers use plain identifiers). */
#ifndef LESSON_JSON_H
#define LESSON_JSON_H
#include <stdio.h>

typedef struct json {
    FILE *f;
    int depth;
    int first[32]; /* no comma needed yet at this depth */
} json;

void json_open(json *j, FILE *f);            /* starts the top-level object */
void json_close(json *j);                    /* ends it, with a newline */
void json_obj(json *j, const char *key);     /* key NULL inside arrays */
void json_end(json *j);                      /* ends an object */
void json_arr(json *j, const char *key);
void json_end_arr(json *j);
void json_int(json *j, const char *key, long long v);
void json_uint(json *j, const char *key, unsigned long long v);
void json_num(json *j, const char *key, double v); /* NaN/inf -> null */
void json_str(json *j, const char *key, const char *v);
void json_bool(json *j, const char *key, int v);
void json_null(json *j, const char *key);
#endif
