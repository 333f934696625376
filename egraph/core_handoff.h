// What it costs one thread to read a cache line another thread has just written.
//
// The apply's batch of new nodes (egraph/add_batch.cpp) can split its phases over a
// saturation's threads, with the same result on any number of them. Whether that pays
// depends on the machine more than on the work: each phase reads the lists the one
// before it wrote, on whichever core wrote them. This project's machine class is a
// virtual machine whose two cores come from different hosts from one day to the next:
//   - on some, a line handed from one core to the other and back takes about 430 ns
//     (twice a miss to memory), and the batch on two threads took 1.04-1.08x the time
//     of the batch on one (docs/performance.md, "The apply's batches on one thread");
//   - on others (an AMD EPYC host, session 38) the round trip takes about 100 ns, and
//     the batch on two threads takes `sum 11`'s apply 0.81-0.87x the time.
// So the runner asks, once per process, how long the round trip takes here, and splits
// the batch only where it is short. Which threads make the batch changes no result.
#pragma once

namespace eqsat {

// A round trip under this (ns) counts as cheap: between the two hosts measured above.
inline constexpr double kCheapHandoffNanoseconds = 250;

// The median over a few rounds of the time (ns) for two threads to hand one cache line
// back and forth once: the calling thread and another thread of its task arena (the
// default one outside any), each spinning on the line. About a millisecond: a few
// thousand round trips. A partner that does not answer within 20 ms in all (the
// machine busy) makes the answer +infinity, and so does an arena of one thread.
double measure_handoff_round_trip_nanoseconds();

// measure_handoff_round_trip_nanoseconds() at the first call, then remembered for the
// process.
double handoff_round_trip_nanoseconds();

// Makes handoff_round_trip_nanoseconds() answer `nanoseconds` from now on, measured or
// not: for tests and benchmarks that run the apply's batch one way or the other.
void assume_handoff_round_trip_nanoseconds(double nanoseconds);

// Whether handoff_round_trip_nanoseconds() is under kCheapHandoffNanoseconds: whether
// the apply's batch runs on the saturation's threads (else on its own thread).
bool threads_hand_off_cheaply();

}  // namespace eqsat
