# One precompiled header of the LibTorch headers dpaudit uses, built once (target
# dpaudit_torch_pch) and reused by every translation unit that reaches LibTorch: parsing
# those headers was 12.7 of the 15.3 CPU s of a typical LibTorch TU; loading the PCH takes
# about 6. Only speed changes: the PCH holds nothing but LibTorch's own headers, and a TU
# that cannot use it (gcc's -Winvalid-pch says so) parses the same headers as text.
#
# dpaudit_torch_pch(TARGET): TARGET's sources that include LibTorch, directly or through
# the project's headers, get the PCH; the others (most of dp-train's option and output
# files) skip it, since loading it would cost them more than it saves. The scan runs at
# configure time; a file that starts to include LibTorch later still builds correctly,
# only without the PCH until the next configure.
#
# ccache caches PCH users only with sloppiness pch_defines,time_macros (ccache manual,
# "Precompiled headers"); the targets with the PCH get a launcher that sets it, the rest of
# the build keeps ccache's defaults.
set(DPAUDIT_TORCH_PCH_HEADERS
    <ATen/Parallel.h>
    <c10/util/Exception.h>
    <torch/autograd.h>
    <torch/csrc/autograd/custom_function.h>
    <torch/nn/cloneable.h>
    <torch/nn/functional/loss.h>
    <torch/nn/init.h>
    <torch/nn/modules/activation.h>
    <torch/nn/modules/container/sequential.h>
    <torch/nn/modules/conv.h>
    <torch/nn/modules/linear.h>
    <torch/nn/modules/pooling.h>
    <torch/optim/sgd.h>
    <torch/types.h>
    <torch/utils.h>)

# The folders a quoted include is looked up in, besides the including file's own.
set(DPAUDIT_TORCH_PCH_SEARCH ${CMAKE_SOURCE_DIR}/lib ${CMAKE_SOURCE_DIR}/tools/dp-train
    ${CMAKE_SOURCE_DIR}/tests/torch)

# OUT is TRUE when FILE includes <torch/...>, <ATen/...> or <c10/...>, itself or through
# a quoted include found in its folder or DPAUDIT_TORCH_PCH_SEARCH (memoized).
function(dpaudit_reaches_torch file out)
  get_property(known GLOBAL PROPERTY "dpaudit_torch_scan:${file}" SET)
  if(known)
    get_property(result GLOBAL PROPERTY "dpaudit_torch_scan:${file}")
    set(${out} ${result} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "dpaudit_torch_scan:${file}" FALSE)  # include cycles
  set(result FALSE)
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  get_filename_component(here ${file} DIRECTORY)
  foreach(line IN LISTS includes)
    if(line MATCHES "<(torch|ATen|c10)/")
      set(result TRUE)
      break()
    endif()
    if(line MATCHES "\"([^\"]+)\"")
      set(name ${CMAKE_MATCH_1})
      foreach(dir ${here} ${DPAUDIT_TORCH_PCH_SEARCH})
        if(EXISTS ${dir}/${name})
          get_filename_component(header ${dir}/${name} ABSOLUTE)
          dpaudit_reaches_torch(${header} sub)
          if(sub)
            set(result TRUE)
          endif()
          break()
        endif()
      endforeach()
      if(result)
        break()
      endif()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "dpaudit_torch_scan:${file}" ${result})
  set(${out} ${result} PARENT_SCOPE)
endfunction()

set(DPAUDIT_TORCH_PCH_LAUNCHER "")
if(CCACHE_PROGRAM)
  set(DPAUDIT_TORCH_PCH_LAUNCHER ${CMAKE_COMMAND} -E env
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${CCACHE_PROGRAM})
endif()

# The PCH's owner: compiles the PCH and one empty file (with the PCH: CMake cannot
# reuse a PCH whose owner skips it); its flags are LibTorch's, the same
# as every user's (gcc refuses a PCH whose flags differ, then parses the headers).
set(pch_stub ${CMAKE_BINARY_DIR}/dpaudit_torch_pch.cpp)
if(NOT EXISTS ${pch_stub})
  file(WRITE ${pch_stub} "// the owner of LibTorch's precompiled header (cmake/torch_pch.cmake)\n")
endif()
add_library(dpaudit_torch_pch OBJECT ${pch_stub})
target_include_directories(dpaudit_torch_pch SYSTEM PRIVATE ${TORCH_INCLUDE_DIRS})
target_link_libraries(dpaudit_torch_pch PRIVATE ${TORCH_LIBRARIES})
target_precompile_headers(dpaudit_torch_pch PRIVATE ${DPAUDIT_TORCH_PCH_HEADERS})
if(DPAUDIT_TORCH_PCH_LAUNCHER)
  set_target_properties(dpaudit_torch_pch PROPERTIES CXX_COMPILER_LAUNCHER
                        "${DPAUDIT_TORCH_PCH_LAUNCHER}")
endif()

function(dpaudit_torch_pch target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(users 0)
  foreach(src IN LISTS sources)
    get_filename_component(path ${src} ABSOLUTE BASE_DIR ${source_dir})
    dpaudit_reaches_torch(${path} uses)
    if(uses)
      math(EXPR users "${users} + 1")
    else()
      set_source_files_properties(${src} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  if(users GREATER 0)
    target_precompile_headers(${target} REUSE_FROM dpaudit_torch_pch)
    if(DPAUDIT_TORCH_PCH_LAUNCHER)
      set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER
                            "${DPAUDIT_TORCH_PCH_LAUNCHER}")
    endif()
  endif()
endfunction()
