/* RISC-V's CPU feature flags, one byte each (the builder's @CStruct CPUFeatures). The builder reads this layout on
 * every platform; this toolchain builds x86-64 images, so no code fills it. */
#ifndef LAB_RISCV64CPUFEATURES_H
#define LAB_RISCV64CPUFEATURES_H

#include <stdint.h>

typedef struct {
  uint8_t fI, fM, fA, fF, fD, fC, fV;
} CPUFeatures;

#endif
