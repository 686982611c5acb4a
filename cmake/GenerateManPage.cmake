# Writes the slimpack(1) man page from the program's own --help texts, so the page never drifts from
# the options. Script mode:
#   cmake -DSLIMPACK=path/to/slimpack -DVERSION=x.y.z -DOUT=slimpack.1 -DDATA_DIR=/usr/share/slimpack-explorer
#         -DDOC_DIR=/usr/share/doc/slimpack-explorer -P GenerateManPage.cmake
# The page has NAME, SYNOPSIS, DESCRIPTION (the top-level --help), one subsection per command (that
# command's --help), EXIT STATUS, FILES and SEE ALSO.
foreach(var SLIMPACK VERSION OUT DATA_DIR DOC_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "GenerateManPage.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run_help out_var)
  execute_process(COMMAND ${SLIMPACK} ${ARGN} --help OUTPUT_VARIABLE text RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "GenerateManPage.cmake: '${SLIMPACK} ${ARGN} --help' exited ${rc}: ${err}")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# Verbatim text as roff: backslashes and minus signs escaped, lines that start with a control
# character protected, inside a no-fill block.
function(roff_verbatim out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(STRIP "${text}" text)
  set(${out_var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

string(REPLACE "-" "\\-" data_dir "${DATA_DIR}")
string(REPLACE "-" "\\-" doc_dir "${DOC_DIR}")

run_help(top)
# Command names: the indented first words after the "commands:" line of the top-level help.
string(REGEX REPLACE ".*\ncommands:\n" "" listing "${top}")
string(REGEX REPLACE "\n\n.*" "" listing "${listing}")
# Line by line: in MATCHALL a "^" also matches where the previous match ended.
string(REPLACE "\n" ";" lines "${listing}")
set(names)
foreach(line IN LISTS lines)
  if(line MATCHES "^  ([a-z][-a-z]*)  ")
    list(APPEND names ${CMAKE_MATCH_1})
  endif()
endforeach()
if(NOT names)
  message(FATAL_ERROR "GenerateManPage.cmake: no commands found in '${SLIMPACK} --help'")
endif()

string(TIMESTAMP today "%Y-%m-%d" UTC)
if(DEFINED ENV{SOURCE_DATE_EPOCH})
  set(today "")  # reproducible builds: no date that changes from build to build
endif()
roff_verbatim(top_roff "${top}")
set(page ".TH SLIMPACK 1 \"${today}\" \"slimpack ${VERSION}\" \"User Commands\"
.SH NAME
slimpack \\- slices, asymmetric MicroPacks and pipeline\\-parallel schedules from the command line
.SH SYNOPSIS
.B slimpack
.I command
.RI [ options ]
.SH DESCRIPTION
.B slimpack
is the command\\-line front end of SlimPack Explorer. It samples or loads a batch of sequence
lengths, builds a pipeline plan with a strategy (fixed, balanced, sliced, slimpack), simulates it
with a DAG simulator and writes metrics, plans, Gantt pictures and Chrome traces.
${top_roff}.SH COMMANDS
")
foreach(entry ${names})
  string(STRIP "${entry}" name)
  run_help(help ${name})
  roff_verbatim(help_roff "${help}")
  string(APPEND page ".SS ${name}\n${help_roff}")
endforeach()
string(APPEND page ".SH EXIT STATUS
.TP
.B 0
success
.TP
.B 2
bad input or usage; the message on standard error names the file, line or field and the reason
.TP
.B 1
internal failure
.SH FILES
.TP
.I ${data_dir}/samples
sample length files, plans, cost measurements and traces
.TP
.I ${doc_dir}
file formats, cost model, strategies and the user guide
.SH SEE ALSO
.BR slimpack\\-explorer (1)
")

# Written by the output-file rule of core/common/output_file.h, restated here because a CMake script
# cannot call the C++ one: a regular file (through symbolic links) or a new path is replaced
# atomically (a temporary file beside it, then a rename), so a build stopped halfway never leaves a
# truncated page that looks up to date; anything else that exists (a device, a FIFO) is written in
# place and never replaced.
set(regular TRUE)
if(EXISTS "${OUT}" AND NOT IS_DIRECTORY "${OUT}")
  execute_process(COMMAND test -f "${OUT}" RESULT_VARIABLE not_regular)
  if(NOT not_regular EQUAL 0)
    set(regular FALSE)
  endif()
endif()
if(regular)
  file(REAL_PATH "${OUT}" target)
  get_filename_component(target_dir "${target}" DIRECTORY)
  get_filename_component(target_name "${target}" NAME)
  string(RANDOM LENGTH 12 suffix)
  set(temp "${target_dir}/.${target_name}.tmp-${suffix}")
  file(WRITE "${temp}" "${page}")
  file(RENAME "${temp}" "${target}")
else()
  file(WRITE "${OUT}" "${page}")
endif()
