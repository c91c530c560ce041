/* perf-ring.h -- read the records of a perf_event ring buffer.

   Used by sample-chain.c and mutate.c, which read the kernel's deferred
   callchains without the perf tool.  */

#ifndef PERF_RING_H
#define PERF_RING_H

#include <linux/perf_event.h>
#include <stdint.h>

/* Call HANDLE (H, ARG) for each whole record written to the ring buffer
   whose first page is META since the last call, then hand the space
   back to the kernel.  A record that wraps around the end of the buffer
   is passed as one piece, copied; so is every record, which keeps H
   aligned.  A record whose header is impossible ends the reading: the
   rest of the buffer is dropped rather than misparsed.  */
static void
perf_ring_drain (struct perf_event_mmap_page *meta,
		 void (*handle) (const struct perf_event_header *h, void *arg),
		 void *arg)
{
  unsigned char *data = (unsigned char *) meta + meta->data_offset;
  uint64_t size = meta->data_size;
  uint64_t head = __atomic_load_n (&meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = meta->data_tail;
  static uint64_t rec[65536 / sizeof (uint64_t)];
  unsigned char *r = (unsigned char *) rec;

  while (tail + sizeof (struct perf_event_header) <= head)
    {
      struct perf_event_header h;
      for (size_t i = 0; i < sizeof h; i++)
	((unsigned char *) &h)[i] = data[(tail + i) % size];
      if (h.size < sizeof h || tail + h.size > head)
	break;
      for (size_t i = 0; i < h.size; i++)
	r[i] = data[(tail + i) % size];
      handle ((const struct perf_event_header *) r, arg);
      tail += h.size;
    }
  __atomic_store_n (&meta->data_tail, head, __ATOMIC_RELEASE);
}

#endif
