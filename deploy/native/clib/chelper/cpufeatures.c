/* x86-64 feature detection for the image: what the CPU and the kernel offer, from CPUID and XCR0. */
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd64cpufeatures.h"

typedef struct {
  unsigned int eax, ebx, ecx, edx;
} cpuid_regs;

static cpuid_regs query(unsigned int leaf, unsigned int subleaf) {
  cpuid_regs r = {0, 0, 0, 0};
  unsigned int max = __get_cpuid_max(leaf & 0x80000000u, NULL);
  if (max >= leaf) {
    __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  }
  return r;
}

#define BIT(reg, n) ((uint8_t) (((reg) >> (n)) & 1u))

/* Which register sets the kernel saves on a context switch (XCR0); AVX and AVX-512 are usable only if it does. */
static unsigned long long enabled_state(const cpuid_regs *leaf1) {
  if (!BIT(leaf1->ecx, 27)) { /* OSXSAVE */
    return 0;
  }
  unsigned int lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long) hi << 32) | lo;
}

void determineCPUFeatures(CPUFeatures *f) {
  memset(f, 0, sizeof(*f));
  cpuid_regs l1 = query(1, 0), l7 = query(7, 0), l7s1 = query(7, 1);
  cpuid_regs e1 = query(0x80000001u, 0), e7 = query(0x80000007u, 0);
  unsigned long long xcr0 = enabled_state(&l1);
  int avx_state = (xcr0 & 0x6) == 0x6;            /* SSE and AVX registers */
  int avx512_state = avx_state && (xcr0 & 0xe0) == 0xe0; /* opmask and ZMM registers */

  f->fTSC = BIT(l1.edx, 4);
  f->fCX8 = BIT(l1.edx, 8);
  f->fCMOV = BIT(l1.edx, 15);
  f->fFLUSH = BIT(l1.edx, 19);
  f->fMMX = BIT(l1.edx, 23);
  f->fFXSR = BIT(l1.edx, 24);
  f->fSSE = BIT(l1.edx, 25);
  f->fSSE2 = BIT(l1.edx, 26);
  f->fHT = BIT(l1.edx, 28);
  f->fSSE3 = BIT(l1.ecx, 0);
  f->fCLMUL = BIT(l1.ecx, 1);
  f->fSSSE3 = BIT(l1.ecx, 9);
  f->fSSE4_1 = BIT(l1.ecx, 19);
  f->fSSE4_2 = BIT(l1.ecx, 20);
  f->fPOPCNT = BIT(l1.ecx, 23);
  f->fAES = BIT(l1.ecx, 25);
  f->fHV = BIT(l1.ecx, 31);
  f->fBMI1 = BIT(l7.ebx, 3);
  f->fBMI2 = BIT(l7.ebx, 8);
  f->fERMS = BIT(l7.ebx, 9);
  f->fRTM = BIT(l7.ebx, 11);
  f->fADX = BIT(l7.ebx, 19);
  f->fFLUSHOPT = BIT(l7.ebx, 23);
  f->fCLWB = BIT(l7.ebx, 24);
  f->fSHA = BIT(l7.ebx, 29);
  f->fPKU = BIT(l7.ecx, 3);
  f->fOSPKE = BIT(l7.ecx, 4);
  f->fCET_SS = BIT(l7.ecx, 7);
  f->fGFNI = BIT(l7.ecx, 8);
  f->fRDPID = BIT(l7.ecx, 22);
  f->fFSRM = BIT(l7.edx, 4);
  f->fSERIALIZE = BIT(l7.edx, 14);
  f->fCET_IBT = BIT(l7.edx, 20);
  f->fLZCNT = BIT(e1.ecx, 5);
  f->fSSE4A = BIT(e1.ecx, 6);
  f->fAMD_3DNOW_PREFETCH = BIT(e1.ecx, 8);
  f->fRDTSCP = BIT(e1.edx, 27);
  f->fTSCINV_BIT = BIT(e7.edx, 8);
  f->fTSCINV = f->fTSCINV_BIT;
  if (avx_state) {
    f->fAVX = BIT(l1.ecx, 28);
    f->fVZEROUPPER = f->fAVX;
    f->fFMA = BIT(l1.ecx, 12);
    f->fF16C = BIT(l1.ecx, 29);
    f->fAVX2 = BIT(l7.ebx, 5);
    f->fAVX_IFMA = BIT(l7s1.eax, 23);
    f->fSHA512 = BIT(l7s1.eax, 0);
  }
  if (avx512_state) {
    f->fAVX512F = BIT(l7.ebx, 16);
    f->fAVX512DQ = BIT(l7.ebx, 17);
    f->fAVX512_IFMA = BIT(l7.ebx, 21);
    f->fAVX512PF = BIT(l7.ebx, 26);
    f->fAVX512ER = BIT(l7.ebx, 27);
    f->fAVX512CD = BIT(l7.ebx, 28);
    f->fAVX512BW = BIT(l7.ebx, 30);
    f->fAVX512VL = BIT(l7.ebx, 31);
    f->fAVX512_VBMI = BIT(l7.ecx, 1);
    f->fAVX512_VBMI2 = BIT(l7.ecx, 6);
    f->fAVX512_VAES = BIT(l7.ecx, 9);
    f->fAVX512_VPCLMULQDQ = BIT(l7.ecx, 10);
    f->fAVX512_VNNI = BIT(l7.ecx, 11);
    f->fAVX512_BITALG = BIT(l7.ecx, 12);
    f->fAVX512_VPOPCNTDQ = BIT(l7.ecx, 14);
    f->fAVX512_FP16 = BIT(l7.edx, 23);
    f->fAVX10_1 = BIT(l7s1.edx, 19);
  }
}

/* 0 when the CPU has every feature the image was compiled for, else -1. The builder writes the mask as the struct's
 * bytes: 0xFE where the image needs the feature, 0xFF elsewhere; a present feature (1) makes its byte 0xFF. */
int checkCPUFeatures(uint8_t *buildtime_mask) {
  CPUFeatures here;
  determineCPUFeatures(&here);
  const uint8_t *now = (const uint8_t *) &here;
  for (size_t i = 0; i < sizeof(here); i++) {
    if ((uint8_t) (now[i] | buildtime_mask[i]) != 0xFF) {
      return -1;
    }
  }
  return 0;
}

int checkCPUFeaturesOrExit(uint8_t *buildtime_mask, const char *error_message) {
  if (checkCPUFeatures(buildtime_mask) != 0) {
    fputs(error_message, stderr);
    fputc('\n', stderr);
    exit(1);
  }
  return 0;
}
