/* sampler.h -- a program that samples itself, for the benchmarks that
   count the CPU time a sample costs (deep.c, hostile.c).

   sampler_start (MODE, PERIOD) samples the calling process every PERIOD
   nanoseconds of its CPU time (a task-clock perf event, user mode),
   each sample with the user callchain: "defer" has the kernel's
   deferred unwinder walk it on the way back to user space, as `perf
   record --call-graph fp,defer' does; "fp" has perf's own frame
   pointer walker read it in the sampling interrupt, as `--call-graph
   fp' does; "count" takes the samples without a callchain; NULL takes
   none.  sampler_stop () stops, and prints the process's CPU time (its
   own: under QEMU's -icount, the instructions it executed) and what the
   ring buffer holds:

     cpu_ns T samples S deferred D lost L frames F

   where D is the number of deferred callchains, L the samples lost and
   F the mean number of user frames per callchain.  It needs the
   kernel's <linux/perf_event.h> of Linux 7.3
   (defer_callchain).  */

#ifndef BENCH_SAMPLER_H
#define BENCH_SAMPLER_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *sampler_mode;
static struct perf_event_mmap_page *sampler_meta;
static size_t sampler_len;
static int sampler_fd = -1;

static inline long
cpu_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* 0, or a message on standard error and -1.  */
static inline int
sampler_start (const char *mode, unsigned long period)
{
  struct perf_event_attr attr;

  sampler_mode = mode;
  if (mode == NULL)
    return 0;
  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = period;
  attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  if (strcmp (mode, "count") != 0)
    {
      attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
      attr.exclude_callchain_kernel = 1;
      attr.sample_max_stack = 1024;
    }
  if (strcmp (mode, "defer") == 0)
    {
      attr.defer_callchain = 1;
      attr.defer_output = 1;
    }
  else if (strcmp (mode, "fp") != 0 && strcmp (mode, "count") != 0)
    {
      fprintf (stderr, "unknown sampling mode '%s'\n", mode);
      return -1;
    }
  sampler_fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (sampler_fd < 0)
    {
      perror ("perf_event_open");
      return -1;
    }
  /* Large enough for every record of a run: it is read at the end.  */
  sampler_len = (1 + 4096) * (size_t) getpagesize ();
  sampler_meta = mmap (NULL, sampler_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED, sampler_fd, 0);
  if (sampler_meta == MAP_FAILED)
    {
      perror ("mmap of the ring buffer");
      return -1;
    }
  return ioctl (sampler_fd, PERF_EVENT_IOC_ENABLE, 0);
}

/* 0, or a message on standard error and -1.  */
static inline int
sampler_stop (void)
{
  unsigned long samples = 0, deferred = 0, lost = 0, frames = 0, chains = 0;
  long t;

  if (sampler_fd >= 0)
    ioctl (sampler_fd, PERF_EVENT_IOC_DISABLE, 0);
  t = cpu_ns ();
  if (sampler_fd >= 0)
    {
      struct perf_event_mmap_page *meta = sampler_meta;
      unsigned char *data = (unsigned char *) meta + meta->data_offset;
      __u64 head = __atomic_load_n (&meta->data_head, __ATOMIC_ACQUIRE);
      __u64 tail = meta->data_tail;

      if (head > meta->data_size)
	{
	  fprintf (stderr, "the ring buffer overflowed\n");
	  return -1;
	}
      while (tail + sizeof (struct perf_event_header) <= head)
	{
	  struct perf_event_header *h = (void *) (data + tail);
	  __u64 *rec = (__u64 *) h;

	  if (h->size < sizeof *h)
	    break;
	  if (h->type == PERF_RECORD_SAMPLE)
	    {
	      samples++;
	      /* ip, pid/tid, nr, PERF_CONTEXT_USER and the frames.  */
	      if (strcmp (sampler_mode, "fp") == 0)
		{
		  frames += rec[3] - 1;
		  chains++;
		}
	    }
	  else if (h->type == PERF_RECORD_CALLCHAIN_DEFERRED)
	    {
	      /* cookie, nr, the frames */
	      deferred++;
	      frames += rec[2];
	      chains++;
	    }
	  else if (h->type == PERF_RECORD_LOST)
	    lost += rec[2];
	  tail += h->size;
	}
      munmap (sampler_meta, sampler_len);
      close (sampler_fd);
    }
  printf ("cpu_ns %ld samples %lu deferred %lu lost %lu frames %.1f\n", t,
	  samples, deferred, lost, chains ? (double) frames / chains : 0.0);
  return 0;
}

#endif
