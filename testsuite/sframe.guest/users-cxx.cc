// users-cxx.cc -- a C++ program as users write them, for users.exp.
//
// For the seconds given (default 2) it takes turns at three things, each
// with a leaf function of its own, so that the samples can be judged
// by leaf: std::sort of a vector with a comparator (by_key, called from
// the library's sort templates, instantiated in this program),
// std::function calls (work_fn, called through the std::function
// invoker), and exceptions thrown and caught (throw_after_work, whose
// exception goes through libstdc++ and libgcc, but whose own samples
// are taken before the throw, with the program's frames only).  The
// leaves have C names, so that the test needs no demangler.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <vector>

#include "spin.h"

volatile unsigned long sink;

struct item
{
  unsigned long key;
  unsigned long payload;
};

extern "C" __attribute__ ((noipa)) bool
by_key (const item &a, const item &b)
{
  // Some work, so that samples land here rather than in the sort.
  for (int i = 0; i < 64; i++)
    sink += a.payload ^ i;
  return a.key < b.key;
}

__attribute__ ((noipa)) static void
run_sort (std::vector<item> &v, unsigned long seed)
{
  for (auto &it : v)
    {
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      it.key = seed >> 33;
      it.payload = seed;
    }
  std::sort (v.begin (), v.end (), by_key);
}

extern "C" __attribute__ ((noipa)) unsigned long
work_fn (unsigned long n)
{
  return spin (0.002, n, &sink);
}

__attribute__ ((noipa)) static unsigned long
run_function (const std::function<unsigned long (unsigned long)> &f,
              unsigned long n)
{
  return f (n) + 1;
}

extern "C" __attribute__ ((noipa)) void
throw_after_work (unsigned long n)
{
  spin (0.002, n, &sink);
  throw std::runtime_error ("done");
}

__attribute__ ((noipa)) static int
run_throw (unsigned long n)
{
  try
    {
      throw_after_work (n);
    }
  catch (const std::runtime_error &)
    {
      return 1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 2.0;
  double end = spin_now () + seconds;
  std::vector<item> v (4096);
  std::function<unsigned long (unsigned long)> f = work_fn;
  unsigned long rounds = 0, caught = 0;
  while (spin_now () < end)
    {
      run_sort (v, rounds);
      sink += run_function (f, rounds);
      caught += run_throw (rounds);
      rounds++;
    }
  std::printf ("rounds %lu caught %lu sorted %d\n", rounds, caught,
               std::is_sorted (v.begin (), v.end (), by_key));
  return 0;
}
