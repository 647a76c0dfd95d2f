#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libavutil/mathematics.h>
#if defined(__linux__)
#include <malloc.h>
#endif

/* Macros Swift cannot import. */
static inline int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int cff_error_eof(void) { return AVERROR_EOF; }
static inline int cff_error_eagain(void) { return AVERROR(EAGAIN); }
static inline int cff_error_from_errno(int e) { return AVERROR(e); }
static inline int cff_errno_from_error(int e) { return AVUNERROR(e); }
static inline int cff_error_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int cff_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int cff_error_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }

/* Allocations of `bytes` or more are mapped and unmapped one by one (glibc; elsewhere nothing). */
static inline void cff_map_allocations_from(int bytes) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void)bytes;
#endif
}

/* Returns the heap's free pages to the system (glibc; elsewhere nothing). */
static inline void cff_return_free_heap(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

#endif
