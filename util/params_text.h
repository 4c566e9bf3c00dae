/* Names of the enumerated fields of bchol_params, for command-line options and reports of
 * the tests and the bchol command. */
#ifndef BCHOL_PARAMS_TEXT_H
#define BCHOL_PARAMS_TEXT_H

/*
 * field is "variant", "gemm", "looking", "unroll", "chunking", "math" or "shape".
 * util_param_value: the value named by text ("left", "full", ...), or -1 if unknown.
 * util_param_name: the name of value, or "?".
 */
int util_param_value(const char *field, const char *text);
const char *util_param_name(const char *field, int value);

#endif
