# Helpers for the scripts that embed text files into the program as C++ raw strings
# (rules/embed_rules.cmake, profiles/embed_profiles.cmake).

# Sets `out_var` to a C++ raw string literal holding the text of `path`, delimited by
# `delimiter`; stops with an error if the text itself contains the closing sequence.
function(eqsat_raw_string_of_file path delimiter out_var)
  file(READ "${path}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} contains the raw-string delimiter ')${delimiter}\"'")
  endif()
  set(${out_var} "R\"${delimiter}(${text})${delimiter}\"" PARENT_SCOPE)
endfunction()

# Writes `content` to `output` only when it differs from what is there, so that an
# unchanged input does not make the generated file (and what includes it) recompile.
function(eqsat_write_if_changed output content)
  if(EXISTS "${output}")
    file(READ "${output}" previous)
    if(previous STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${output}" "${content}")
endfunction()
