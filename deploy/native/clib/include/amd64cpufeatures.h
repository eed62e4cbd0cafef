/* The x86-64 features the image was compiled for and the CPU it runs on, one byte each, as the builder's Java side
 * reads them (its @CStruct CPUFeatures). LAB_CPU_FEATURES lists them once for the struct and for the code. */
#ifndef LAB_AMD64CPUFEATURES_H
#define LAB_AMD64CPUFEATURES_H

#include <stdint.h>

#define LAB_CPU_FEATURES(X) \
  X(CX8) X(CMOV) X(FXSR) X(HT) X(MMX) X(AMD_3DNOW_PREFETCH) X(SSE) X(SSE2) X(SSE3) X(SSSE3) X(SSE4A) X(SSE4_1) \
  X(SSE4_2) X(POPCNT) X(LZCNT) X(TSC) X(TSCINV) X(TSCINV_BIT) X(AVX) X(AVX2) X(AES) X(ERMS) X(CLMUL) X(BMI1) X(BMI2) \
  X(RTM) X(ADX) X(AVX512F) X(AVX512DQ) X(AVX512PF) X(AVX512ER) X(AVX512CD) X(AVX512BW) X(AVX512VL) X(SHA) X(FMA) \
  X(VZEROUPPER) X(AVX512_VPOPCNTDQ) X(AVX512_VPCLMULQDQ) X(AVX512_VAES) X(AVX512_VNNI) X(FLUSH) X(FLUSHOPT) X(CLWB) \
  X(AVX512_VBMI2) X(AVX512_VBMI) X(HV) X(SERIALIZE) X(RDTSCP) X(RDPID) X(FSRM) X(GFNI) X(AVX512_BITALG) X(PKU) \
  X(OSPKE) X(CET_IBT) X(CET_SS) X(F16C) X(AVX512_IFMA) X(AVX_IFMA) X(APX_F) X(SHA512) X(AVX512_FP16) X(AVX10_1) \
  X(AVX10_2)

#define LAB_CPU_FEATURE_FIELD(name) uint8_t f##name;
typedef struct {
  LAB_CPU_FEATURES(LAB_CPU_FEATURE_FIELD)
} CPUFeatures;
#undef LAB_CPU_FEATURE_FIELD

void determineCPUFeatures(CPUFeatures *features);
int checkCPUFeatures(uint8_t *buildtime_mask);
int checkCPUFeaturesOrExit(uint8_t *buildtime_mask, const char *error_message);

#endif
