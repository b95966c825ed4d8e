/** The catalog: every check file, one import each. A check file not listed here fails the registry test. */
import type { Check } from '../judge/check.ts';
import error_invalid_cursor from './error-invalid-cursor.ts';
import error_invalid_request_code from './error-invalid-request-code.ts';
import error_invalid_request from './error-invalid-request.ts';
import error_method_code from './error-method-code.ts';
import error_missing_tool_name from './error-missing-tool-name.ts';
import error_parse_code from './error-parse-code.ts';
import error_parse from './error-parse.ts';
import error_retired_codes from './error-retired-codes.ts';
import error_unknown_method_404 from './error-unknown-method-404.ts';
import error_unknown_method from './error-unknown-method.ts';
import error_unknown_tool from './error-unknown-tool.ts';
import lifecycle_capabilities_shape from './lifecycle-capabilities-shape.ts';
import lifecycle_capability_flags from './lifecycle-capability-flags.ts';
import lifecycle_capability_gated from './lifecycle-capability-gated.ts';
import lifecycle_client_info_optional from './lifecycle-client-info-optional.ts';
import lifecycle_client_only_caps from './lifecycle-client-only-caps.ts';
import lifecycle_completion_unknown from './lifecycle-completion-unknown.ts';
import lifecycle_completions from './lifecycle-completions.ts';
import lifecycle_discover_caching from './lifecycle-discover-caching.ts';
import lifecycle_discover_versions from './lifecycle-discover-versions.ts';
import lifecycle_dual_era from './lifecycle-dual-era.ts';
import lifecycle_handshake from './lifecycle-handshake.ts';
import lifecycle_id_match from './lifecycle-id-match.ts';
import lifecycle_initialized_202 from './lifecycle-initialized-202.ts';
import lifecycle_instructions from './lifecycle-instructions.ts';
import lifecycle_jsonrpc_envelope from './lifecycle-jsonrpc-envelope.ts';
import lifecycle_log_level_gating from './lifecycle-log-level-gating.ts';
import lifecycle_log_level_invalid from './lifecycle-log-level-invalid.ts';
import lifecycle_log_message_shape from './lifecycle-log-message-shape.ts';
import lifecycle_meta_caps_required from './lifecycle-meta-caps-required.ts';
import lifecycle_meta_required from './lifecycle-meta-required.ts';
import lifecycle_meta_tolerance from './lifecycle-meta-tolerance.ts';
import lifecycle_meta_version_required from './lifecycle-meta-version-required.ts';
import lifecycle_ping from './lifecycle-ping.ts';
import lifecycle_progress_token from './lifecycle-progress-token.ts';
import lifecycle_removed_methods from './lifecycle-removed-methods.ts';
import lifecycle_result_type from './lifecycle-result-type.ts';
import lifecycle_server_info_meta from './lifecycle-server-info-meta.ts';
import lifecycle_server_info from './lifecycle-server-info.ts';
import lifecycle_set_level_invalid from './lifecycle-set-level-invalid.ts';
import lifecycle_set_level from './lifecycle-set-level.ts';
import lifecycle_string_id from './lifecycle-string-id.ts';
import lifecycle_subscriptions_listen from './lifecycle-subscriptions-listen.ts';
import lifecycle_unknown_notification from './lifecycle-unknown-notification.ts';
import lifecycle_version_format from './lifecycle-version-format.ts';
import lifecycle_version_negotiate from './lifecycle-version-negotiate.ts';
import lifecycle_version_unsupported from './lifecycle-version-unsupported.ts';
import prompts_get from './prompts-get.ts';
import prompts_list_caching from './prompts-list-caching.ts';
import prompts_list from './prompts-list.ts';
import prompts_pagination from './prompts-pagination.ts';
import prompts_schema from './prompts-schema.ts';
import prompts_unknown from './prompts-unknown.ts';
import resources_list_caching from './resources-list-caching.ts';
import resources_list from './resources-list.ts';
import resources_not_found from './resources-not-found.ts';
import resources_pagination from './resources-pagination.ts';
import resources_read_caching from './resources-read-caching.ts';
import resources_read from './resources-read.ts';
import resources_schema from './resources-schema.ts';
import resources_subscribe from './resources-subscribe.ts';
import resources_templates_caching from './resources-templates-caching.ts';
import resources_templates from './resources-templates.ts';
import schema_input_required_shape from './schema-input-required-shape.ts';
import schema_no_input_required_on_lists from './schema-no-input-required-on-lists.ts';
import security_auth_all_methods from './security-auth-all-methods.ts';
import security_auth_malformed from './security-auth-malformed.ts';
import security_auth_required from './security-auth-required.ts';
import security_auth_server_https from './security-auth-server-https.ts';
import security_challenge_scope from './security-challenge-scope.ts';
import security_command_injection from './security-command-injection.ts';
import security_cors_wildcard from './security-cors-wildcard.ts';
import security_credential_not_echoed from './security-credential-not-echoed.ts';
import security_error_no_internal_ip from './security-error-no-internal-ip.ts';
import security_error_no_stacktrace from './security-error-no-stacktrace.ts';
import security_extra_params from './security-extra-params.ts';
import security_oauth_metadata from './security-oauth-metadata.ts';
import security_oversized_input from './security-oversized-input.ts';
import security_path_traversal from './security-path-traversal.ts';
import security_prm_resource from './security-prm-resource.ts';
import security_rate_limiting from './security-rate-limiting.ts';
import security_session_entropy from './security-session-entropy.ts';
import security_session_not_auth from './security-session-not-auth.ts';
import security_sql_injection from './security-sql-injection.ts';
import security_ssrf_internal from './security-ssrf-internal.ts';
import security_tls_required from './security-tls-required.ts';
import security_token_in_uri from './security-token-in-uri.ts';
import security_tool_cross_reference from './security-tool-cross-reference.ts';
import security_tool_list_stable from './security-tool-list-stable.ts';
import security_tool_poisoning from './security-tool-poisoning.ts';
import security_www_authenticate from './security-www-authenticate.ts';
import stdio_framing from './stdio-framing.ts';
import stdio_giant_line from './stdio-giant-line.ts';
import stdio_notification_silent from './stdio-notification-silent.ts';
import stdio_partial_line from './stdio-partial-line.ts';
import stdio_stdout_clean from './stdio-stdout-clean.ts';
import tools_annotations from './tools-annotations.ts';
import tools_call from './tools-call.ts';
import tools_content_types from './tools-content-types.ts';
import tools_deterministic_order from './tools-deterministic-order.ts';
import tools_input_schema from './tools-input-schema.ts';
import tools_list_caching from './tools-list-caching.ts';
import tools_list from './tools-list.ts';
import tools_name_format from './tools-name-format.ts';
import tools_output_schema from './tools-output-schema.ts';
import tools_pagination from './tools-pagination.ts';
import tools_structured_output from './tools-structured-output.ts';
import tools_title_field from './tools-title-field.ts';
import transport_batch_reject from './transport-batch-reject.ts';
import transport_content_type from './transport-content-type.ts';
import transport_content_type_reject from './transport-content-type-reject.ts';
import transport_delete_removed from './transport-delete-removed.ts';
import transport_get_legacy from './transport-get-legacy.ts';
import transport_get_removed from './transport-get-removed.ts';
import transport_header_case_insensitive from './transport-header-case-insensitive.ts';
import transport_header_method_mismatch from './transport-header-method-mismatch.ts';
import transport_header_method_required from './transport-header-method-required.ts';
import transport_header_name_mismatch from './transport-header-name-mismatch.ts';
import transport_header_version_mismatch from './transport-header-version-mismatch.ts';
import transport_header_version_required from './transport-header-version-required.ts';
import transport_no_server_requests from './transport-no-server-requests.ts';
import transport_notification_202 from './transport-notification-202.ts';
import transport_origin from './transport-origin.ts';
import transport_post from './transport-post.ts';
import transport_session_delete from './transport-session-delete.ts';
import transport_session_id_charset from './transport-session-id-charset.ts';
import transport_session_ignored from './transport-session-ignored.ts';
import transport_session_required from './transport-session-required.ts';
import transport_session_unknown from './transport-session-unknown.ts';
import transport_sse_data_jsonrpc from './transport-sse-data-jsonrpc.ts';
import transport_unicode_roundtrip from './transport-unicode-roundtrip.ts';
import transport_version_header_legacy from './transport-version-header-legacy.ts';

export const CATALOG: readonly Check[] = [
  error_invalid_cursor,
  error_invalid_request_code,
  error_invalid_request,
  error_method_code,
  error_missing_tool_name,
  error_parse_code,
  error_parse,
  error_retired_codes,
  error_unknown_method_404,
  error_unknown_method,
  error_unknown_tool,
  lifecycle_capabilities_shape,
  lifecycle_capability_flags,
  lifecycle_capability_gated,
  lifecycle_client_info_optional,
  lifecycle_client_only_caps,
  lifecycle_completion_unknown,
  lifecycle_completions,
  lifecycle_discover_caching,
  lifecycle_discover_versions,
  lifecycle_dual_era,
  lifecycle_handshake,
  lifecycle_id_match,
  lifecycle_initialized_202,
  lifecycle_instructions,
  lifecycle_jsonrpc_envelope,
  lifecycle_log_level_gating,
  lifecycle_log_level_invalid,
  lifecycle_log_message_shape,
  lifecycle_meta_caps_required,
  lifecycle_meta_required,
  lifecycle_meta_tolerance,
  lifecycle_meta_version_required,
  lifecycle_ping,
  lifecycle_progress_token,
  lifecycle_removed_methods,
  lifecycle_result_type,
  lifecycle_server_info_meta,
  lifecycle_server_info,
  lifecycle_set_level_invalid,
  lifecycle_set_level,
  lifecycle_string_id,
  lifecycle_subscriptions_listen,
  lifecycle_unknown_notification,
  lifecycle_version_format,
  lifecycle_version_negotiate,
  lifecycle_version_unsupported,
  prompts_get,
  prompts_list_caching,
  prompts_list,
  prompts_pagination,
  prompts_schema,
  prompts_unknown,
  resources_list_caching,
  resources_list,
  resources_not_found,
  resources_pagination,
  resources_read_caching,
  resources_read,
  resources_schema,
  resources_subscribe,
  resources_templates_caching,
  resources_templates,
  schema_input_required_shape,
  schema_no_input_required_on_lists,
  security_auth_all_methods,
  security_auth_malformed,
  security_auth_required,
  security_auth_server_https,
  security_challenge_scope,
  security_command_injection,
  security_cors_wildcard,
  security_credential_not_echoed,
  security_error_no_internal_ip,
  security_error_no_stacktrace,
  security_extra_params,
  security_oauth_metadata,
  security_oversized_input,
  security_path_traversal,
  security_prm_resource,
  security_rate_limiting,
  security_session_entropy,
  security_session_not_auth,
  security_sql_injection,
  security_ssrf_internal,
  security_tls_required,
  security_token_in_uri,
  security_tool_cross_reference,
  security_tool_list_stable,
  security_tool_poisoning,
  security_www_authenticate,
  stdio_framing,
  stdio_giant_line,
  stdio_notification_silent,
  stdio_partial_line,
  stdio_stdout_clean,
  tools_annotations,
  tools_call,
  tools_content_types,
  tools_deterministic_order,
  tools_input_schema,
  tools_list_caching,
  tools_list,
  tools_name_format,
  tools_output_schema,
  tools_pagination,
  tools_structured_output,
  tools_title_field,
  transport_batch_reject,
  transport_content_type,
  transport_content_type_reject,
  transport_delete_removed,
  transport_get_legacy,
  transport_get_removed,
  transport_header_case_insensitive,
  transport_header_method_mismatch,
  transport_header_method_required,
  transport_header_name_mismatch,
  transport_header_version_mismatch,
  transport_header_version_required,
  transport_no_server_requests,
  transport_notification_202,
  transport_origin,
  transport_post,
  transport_session_delete,
  transport_session_id_charset,
  transport_session_ignored,
  transport_session_required,
  transport_session_unknown,
  transport_sse_data_jsonrpc,
  transport_unicode_roundtrip,
  transport_version_header_legacy,
];
