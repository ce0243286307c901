// GDAL, libpq, PROJ and libcurl, bound when first needed rather than linked (GDAL alone costs about
// 20 MB resident at start-up); field types come from the headers (__typeof__), so signatures cannot drift.
#ifndef FLYR_LATE_BOUND_H
#define FLYR_LATE_BOUND_H

#include <gdal/gdal.h>
#include <gdal/ogr_api.h>
#include <gdal/ogr_srs_api.h>
#include <gdal/cpl_conv.h>
#include <gdal/cpl_error.h>
#include <gdal/cpl_string.h>
#include <gdal/cpl_vsi.h>
#include <postgresql/libpq-fe.h>
#include <proj.h>
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#define FLYR_GDAL_FUNCTIONS(X) \
    X(CPLErrorReset) X(CPLGetLastErrorMsg) X(CPLGetLastErrorType) X(CPLSetErrorHandler) X(CPLQuietErrorHandler) \
    X(GDALAllRegister) X(GDALVersionInfo) X(GDALClose) X(GDALOpenEx) X(GDALGetDatasetDriver) X(GDALGetDriverByName) X(GDALGetDriverShortName) \
    X(GDALDatasetExecuteSQL) X(GDALDatasetGetLayer) X(GDALDatasetGetLayerByName) X(GDALDatasetGetLayerCount) \
    X(GDALDatasetReleaseResultSet) \
    X(OGR_L_GetFeatureCount) X(OGR_L_GetLayerDefn) X(OGR_L_GetName) X(OGR_L_GetNextFeature) X(OGR_L_GetSpatialRef) \
    X(OGR_L_ResetReading) X(OGR_L_SetAttributeFilter) X(OGR_L_SetSpatialFilterRect) \
    X(OGR_FD_GetFieldCount) X(OGR_FD_GetFieldDefn) X(OGR_FD_GetGeomFieldCount) X(OGR_Fld_GetNameRef) X(OGR_Fld_GetType) X(OGR_GetFieldTypeName) \
    X(OGR_F_Destroy) X(OGR_F_GetFID) X(OGR_F_GetFieldAsString) X(OGR_F_GetFieldIndex) X(OGR_F_GetGeometryRef) \
    X(OGR_F_IsFieldSetAndNotNull) \
    X(OGR_GT_Flatten) X(OGR_G_AddGeometry) X(OGR_G_AddGeometryDirectly) X(OGR_G_AddPoint_2D) X(OGR_G_Clone) \
    X(OGR_G_CreateGeometry) X(OGR_G_DestroyGeometry) X(OGR_G_ExportToIsoWkb) X(OGR_G_ExportToJsonEx) \
    X(OGR_G_GetGeometryCount) X(OGR_G_GetGeometryRef) X(OGR_G_GetGeometryType) X(OGR_G_Intersection) \
    X(OGR_G_Intersects) X(OGR_G_IsEmpty) X(OGR_G_Transform) X(OGR_G_WkbSize) \
    X(OSRClone) X(OSRDestroySpatialReference) X(OSRExportToWktEx) X(OSRIsSame) X(OSRNewSpatialReference) \
    X(OSRSetAxisMappingStrategy) X(OSRSetFromUserInput) X(OCTNewCoordinateTransformation) \
    X(OCTDestroyCoordinateTransformation) X(VSIFree) \
    X(CPLSetThreadLocalConfigOption) X(CPLGetThreadLocalConfigOption) X(GDALCreate) X(GDALDatasetCreateLayer) \
    X(GDALDatasetStartTransaction) X(GDALDatasetCommitTransaction) \
    X(OGR_Fld_Create) X(OGR_Fld_SetSubType) X(OGR_Fld_Destroy) X(OGR_L_CreateField) X(OGR_L_CreateFeature) \
    X(OGR_F_Create) X(OGR_F_SetFieldString) X(OGR_F_SetFieldInteger64) X(OGR_F_SetFieldDouble) X(OGR_F_SetFieldNull) \
    X(OGR_F_SetGeometryDirectly) X(OGR_F_StealGeometry) X(OGR_F_GetFieldAsDouble) X(OGR_F_GetFieldAsInteger64) \
    X(OGR_G_ForceToMultiPolygon)

#define FLYR_PQ_FUNCTIONS(X) \
    X(PQconnectdb) X(PQstatus) X(PQerrorMessage) X(PQfinish) X(PQdb) X(PQuser) X(PQserverVersion) \
    X(PQsetNoticeProcessor) X(PQexec) X(PQexecParams) X(PQgetResult) X(PQresultStatus) X(PQresultErrorField) \
    X(PQresultErrorMessage) X(PQclear) X(PQcmdTuples) X(PQntuples) X(PQnfields) X(PQgetvalue) X(PQgetisnull) \
    X(PQputCopyData) X(PQputCopyEnd)

#define FLYR_PROJ_FUNCTIONS(X) \
    X(proj_context_create) X(proj_context_destroy) X(proj_context_errno) X(proj_context_errno_string) \
    X(proj_create) X(proj_create_crs_to_crs) X(proj_destroy) X(proj_get_id_auth_name) X(proj_get_id_code) \
    X(proj_info) X(proj_is_equivalent_to_with_ctx) X(proj_log_level) X(proj_normalize_for_visualization) X(proj_trans_generic)

// libcurl: remote GeoParquet read with HTTP range requests (Input/Remote).
#define FLYR_CURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_reset) X(curl_easy_setopt) \
    X(curl_easy_perform) X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_easy_header) \
    X(curl_slist_append) X(curl_slist_free_all)

#define FLYR_FUNCTION_FIELD(name) __typeof__(&name) _Nonnull name;

/// GDAL's functions used by the project.
typedef struct FlyrGDAL {
    FLYR_GDAL_FUNCTIONS(FLYR_FUNCTION_FIELD)
} FlyrGDAL;

/// libpq's functions used by the project.
typedef struct FlyrPQ {
    FLYR_PQ_FUNCTIONS(FLYR_FUNCTION_FIELD)
} FlyrPQ;

/// PROJ's functions used by the project.
typedef struct FlyrPROJ {
    FLYR_PROJ_FUNCTIONS(FLYR_FUNCTION_FIELD)
} FlyrPROJ;

/// libcurl's functions used by the project.
typedef struct FlyrCurl {
    FLYR_CURL_FUNCTIONS(FLYR_FUNCTION_FIELD)
} FlyrCurl;

#undef FLYR_FUNCTION_FIELD

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument the project passes.
static inline CURLcode flyr_curl_setopt_long(const FlyrCurl *_Nonnull c, CURL *_Nonnull h, CURLoption o, long v) {
    return c->curl_easy_setopt(h, o, v);
}
static inline CURLcode flyr_curl_setopt_pointer(const FlyrCurl *_Nonnull c, CURL *_Nonnull h, CURLoption o, const void *_Nullable v) {
    return c->curl_easy_setopt(h, o, v);
}
typedef size_t (*FlyrCurlWrite)(char *_Nonnull data, size_t size, size_t count, void *_Nullable context);
static inline CURLcode flyr_curl_setopt_write(const FlyrCurl *_Nonnull c, CURL *_Nonnull h, FlyrCurlWrite _Nonnull f) {
    return c->curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode flyr_curl_getinfo_long(const FlyrCurl *_Nonnull c, CURL *_Nonnull h, CURLINFO i, long *_Nonnull v) {
    return c->curl_easy_getinfo(h, i, v);
}

/// GDAL's functions, the library loaded on the first call (thread-safe); NULL when it cannot be
/// loaded or lacks one of them, with the loader's message in `*error` (static storage).
const FlyrGDAL *_Nullable flyr_gdal(const char *_Nullable *_Nonnull error);

/// libpq's functions, as `flyr_gdal`.
const FlyrPQ *_Nullable flyr_pq(const char *_Nullable *_Nonnull error);

/// PROJ's functions, as `flyr_gdal`.
const FlyrPROJ *_Nullable flyr_proj(const char *_Nullable *_Nonnull error);

/// libcurl's functions, as `flyr_gdal` (curl_global_init is the caller's to run, once).
const FlyrCurl *_Nullable flyr_curl(const char *_Nullable *_Nonnull error);

#endif
