# dpaudit_layer(NAME [TORCH] [DEPENDS layer...] [PACKAGES target...])
#
# A folder's cuda/ subfolder (lib/NAME/cuda/) is the CUDA part of the layer, compiled into its
# own library: its .cu files where the build has CUDA (DPAUDIT_CUDA, the top-level
# CMakeLists.txt), with -fmad=false (no fused multiply-add: the GPU rounds as the CPU does);
# otherwise its .cpp files, which say what the layer does without CUDA. The layering check
# covers all of them.
#
# The library dpaudit_NAME from lib/NAME/*.cpp (with TORCH: dpaudit_NAME_torch from
# lib/NAME/torch/*.cpp, linked with LibTorch), linked PUBLIC with the declared layers and
# packages; a torch layer also links the torch part of each layer it declares (defined
# above it in lib/CMakeLists.txt). Before it compiles, cmake/check_layer.cmake checks that its sources and headers
# include nothing else (see lib/CMakeLists.txt).
function(dpaudit_layer name)
  cmake_parse_arguments(L "TORCH" "" "DEPENDS;PACKAGES" ${ARGN})
  set(dir ${CMAKE_SOURCE_DIR}/lib/${name})
  set(target dpaudit_${name})
  set(allowed ${L_DEPENDS})
  if(L_TORCH)
    set(dir ${dir}/torch)
    set(target dpaudit_${name}_torch)
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  file(GLOB headers CONFIGURE_DEPENDS ${dir}/*.hpp)
  set(checked "")
  if(NOT L_TORCH AND IS_DIRECTORY ${dir}/cuda)
    file(GLOB cuda_sources CONFIGURE_DEPENDS ${dir}/cuda/*.cu)
    file(GLOB cuda_absent CONFIGURE_DEPENDS ${dir}/cuda/*.cpp)
    file(GLOB cuda_headers CONFIGURE_DEPENDS ${dir}/cuda/*.hpp)
    list(APPEND headers ${cuda_headers})
    if(DPAUDIT_CUDA)
      set_source_files_properties(${cuda_sources} PROPERTIES COMPILE_OPTIONS -fmad=false
                                                             SKIP_UNITY_BUILD_INCLUSION ON)
      list(APPEND sources ${cuda_sources})
      set(checked ${cuda_absent})
    else()
      list(APPEND sources ${cuda_absent})
      set(checked ${cuda_sources})
    endif()
  endif()
  set(deps "")
  foreach(layer IN LISTS L_DEPENDS)
    list(APPEND deps dpaudit_${layer})
    if(L_TORCH AND TARGET dpaudit_${layer}_torch)
      list(APPEND deps dpaudit_${layer}_torch)  # a torch layer uses the torch part of its deps
    endif()
  endforeach()
  if(L_TORCH)
    list(APPEND allowed ${name})  # a torch/ folder uses its concept's LibTorch-free part
    list(APPEND deps dpaudit_${name} ${TORCH_LIBRARIES})
  endif()

  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${target}.layers)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=${name} "-DALLOWED=${allowed}" -DTORCH=${L_TORCH}
            "-DFILES=${sources};${headers};${checked}" -DSTAMP=${stamp}
            -P ${CMAKE_SOURCE_DIR}/cmake/check_layer.cmake
    DEPENDS ${sources} ${headers} ${checked} ${CMAKE_SOURCE_DIR}/cmake/check_layer.cmake
    COMMENT "layering check: ${target}" VERBATIM)
  add_custom_target(${target}_layering DEPENDS ${stamp})

  if(sources)
    add_library(${target} STATIC ${sources})
    set(scope PUBLIC)
    if(DPAUDIT_UNITY AND NOT L_TORCH)
      # A LibTorch-free layer compiles its files in batches of 8 (one translation unit each):
      # each batch parses Boost.Math, Eigen and fmt once instead of once a file, which about
      # halves the layer's compile time (issue 21's build time). Every file keeps to names of
      # its own in its anonymous namespace, so a batch compiles as its files alone did (make
      # lint compiles them alone, -DDPAUDIT_UNITY=OFF, and builds each file's tidy view).
      set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
                                                 UNITY_BUILD_BATCH_SIZE 8)
    endif()
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  add_dependencies(${target} ${target}_layering)
  target_include_directories(${target} ${scope} ${CMAKE_SOURCE_DIR}/lib)
  target_include_directories(${target} SYSTEM ${scope} ${RANDOM123_INCLUDE_DIR})
  if(L_TORCH)
    target_include_directories(${target} SYSTEM ${scope} ${TORCH_INCLUDE_DIRS})
  endif()
  target_compile_definitions(${target} ${scope} DPAUDIT_VERSION="${PROJECT_VERSION}")
  target_link_libraries(${target} ${scope} ${deps} ${L_PACKAGES})
  if(DPAUDIT_CUDA AND cuda_sources)
    target_link_libraries(${target} ${scope} CUDA::cudart_static)
  endif()
endfunction()
