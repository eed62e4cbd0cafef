/* AArch64's CPU feature flags, one byte each (the builder's @CStruct CPUFeatures). The builder reads this layout on
 * every platform; this toolchain builds x86-64 images, so no code fills it. */
#ifndef LAB_AARCH64CPUFEATURES_H
#define LAB_AARCH64CPUFEATURES_H

#include <stdint.h>

typedef struct {
  uint8_t fFP, fASIMD, fEVTSTRM, fAES, fPMULL, fSHA1, fSHA2, fCRC32, fLSE, fDCPOP, fSHA3, fSHA512, fSVE, fSVE2,
      fSTXR_PREFETCH, fA53MAC, fDMB_ATOMICS, fPACA, fSVEBITPERM, fFPHP, fASIMDHP;
} CPUFeatures;

#endif
