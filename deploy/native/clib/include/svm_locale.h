/* The locale the image starts with, as the builder's Java side reads it (its @CStruct svm_locale_props_t). */
#ifndef LAB_SVM_LOCALE_H
#define LAB_SVM_LOCALE_H

#define SVM_LOCALE_INITIALIZATION_USE_DEFAULT 0
#define SVM_LOCALE_INITIALIZATION_SUCCEEDED 1
#define SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY 2

/* One set for formatting (LC_CTYPE) and one for display (LC_MESSAGES); a field is NULL where the locale says nothing. */
typedef struct {
  char *format_language;
  char *format_script;
  char *format_country;
  char *format_variant;
  char *display_language;
  char *display_script;
  char *display_country;
  char *display_variant;
} svm_locale_props_t;

int svm_initialize_locale(void);
svm_locale_props_t *svm_get_locale(void);

#endif
