# Finds cJSON (Debian: libcjson-dev) as the imported target bchol::cjson, which bchol's
# tuning files need. Included by bchol's build and, installed beside bcholConfig.cmake, by
# projects that link the static library, so the export names the target, not a path.
if(NOT TARGET bchol::cjson)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(PC_CJSON QUIET libcjson)
  endif()
  find_path(CJSON_INCLUDE_DIR cjson/cJSON.h HINTS ${PC_CJSON_INCLUDEDIR})
  find_library(CJSON_LIBRARY cjson HINTS ${PC_CJSON_LIBDIR})
  if(CJSON_INCLUDE_DIR AND CJSON_LIBRARY)
    add_library(bchol::cjson UNKNOWN IMPORTED)
    set_target_properties(bchol::cjson PROPERTIES IMPORTED_LOCATION "${CJSON_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${CJSON_INCLUDE_DIR}")
  endif()
endif()
