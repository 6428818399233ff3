#! /usr/bin/env python3

# quic-cc examples that ns-3's test.py runs as smoke tests when this module sits in
# contrib/quic-cc (./test.py --constrain=example, or a plain ./test.py).
#
# A list of C++ examples to run in order to ensure that they remain
# buildable and runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run, do_valgrind_run).
#
# See test.py for more information.
cpp_examples = [
    # Two RngRun values per configuration (cubic-LastSent, cubic-LastActivity, reno), one
    # process at a time: a few seconds.
    ("quic-cc-death-spiral --runs=2 --jobs=1", "True", "False"),
    # One 1 MB transfer; the cwnd trace goes to a file in the working directory.
    ("quic-cc-simple --maxBytes=1000000", "True", "False"),
    # Two QUIC configurations and ns-3 TCP at one buffer and loss point, a short download.
    ("quic-cc-hystart-lab --runs=1 --buffer=1 --loss=0,2% --size=300kB "
     "--configs=tcp-cubic,reno,cubic-hystart --jobs=1", "True", "False"),
    # The true-idle study: the headline rows, one run each of two short chunks.
    ("quic-cc-idle --runs=1 --pauses=1 --chunk=300kB --period=0.5s --jobs=1", "True", "False"),
    # CUBIC's growth after one loss (quiche's CUBIC, an ACK every 10 packets), 3 s.
    ("quic-cc-cubic-growth --parts=oneloss --duration=3s --stacks=quiche --ackRatios=10 --jobs=1",
     "True", "False"),
    # The interop runner's goodput on its path, quic-cc CUBIC, a 1 MiB transfer.
    ("quic-cc-interop --measurements=G --stacks=quic-cc-cubic --goodputSize=1MiB --runs=1 --jobs=1",
     "True", "False"),
    # The satellite path, quic-cc CUBIC, 5 MB.
    ("quic-cc-satellite --configs=cubic --ackRatios=10 --size=5MB --jobs=1", "True", "False"),
    # The ECN study: CoDel marking, CUBIC with ECN off and on, one short transfer each.
    ("quic-cc-ecn --runs=1 --jobs=1 --transfer=300kB --queues=codel "
     "--rows=quic-cubic,quic-cubic-ecn", "True", "False"),
    # The --dryRun contract: options checked, nothing printed, exit 0.
    ("quic-cc-death-spiral --dryRun=true --loss=0.3", "True", "False"),
]

# A list of Python examples to run in order to ensure that they remain
# runnable over time.  Each tuple in the list contains
#
#     (example_name, do_run).
#
# See test.py for more information.
python_examples = []
