/* The locale the image starts in, from the POSIX locale of its environment (LANG, LC_ALL, LC_CTYPE, LC_MESSAGES): a
 * name like ll_CC.codeset@modifier gives the language, country and (for a few modifiers) the script. "C" and "POSIX"
 * stand for en_US, as on the JVM. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "svm_locale.h"

static svm_locale_props_t props;

static const char *script_of(const char *modifier) {
  static const char *const scripts[][2] = {{"latin", "Latn"}, {"cyrillic", "Cyrl"}, {"devanagari", "Deva"}};
  for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
    if (strcmp(modifier, scripts[i][0]) == 0) {
      return scripts[i][1];
    }
  }
  return NULL;
}

static char *copy_of(const char *start, size_t length) {
  char *s = malloc(length + 1);
  if (s != NULL) {
    memcpy(s, start, length);
    s[length] = '\0';
  }
  return s;
}

/* Splits a locale name into its fields; 0 when out of memory. */
static int parse(const char *name, char **language, char **script, char **country, char **variant) {
  if (name == NULL || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strncmp(name, "C.", 2) == 0) {
    name = "en_US";
  }
  size_t language_length = strcspn(name, "_.@");
  *language = copy_of(name, language_length);
  const char *rest = name + language_length;
  if (*rest == '_') {
    size_t country_length = strcspn(rest + 1, ".@");
    *country = copy_of(rest + 1, country_length);
    if (*country == NULL) {
      return 0;
    }
  }
  const char *modifier = strchr(name, '@');
  const char *known = modifier != NULL ? script_of(modifier + 1) : NULL;
  if (known != NULL && (*script = strdup(known)) == NULL) {
    return 0;
  }
  *variant = NULL;
  return *language != NULL;
}

int svm_initialize_locale(void) {
  setlocale(LC_ALL, "");
  int ok = parse(setlocale(LC_CTYPE, NULL), &props.format_language, &props.format_script, &props.format_country,
                 &props.format_variant)
           && parse(setlocale(LC_MESSAGES, NULL), &props.display_language, &props.display_script,
                    &props.display_country, &props.display_variant);
  return ok ? SVM_LOCALE_INITIALIZATION_SUCCEEDED : SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
}

svm_locale_props_t *svm_get_locale(void) {
  return &props;
}
