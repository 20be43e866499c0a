"""Units of the library, a folder per gdbbridge subpackage (session, record, debugger, cuda, sanitizer, host,
jobs, explain, doctor, nvml, i18n); here the top-level modules (aggregates, names, outcome, text, source), the
import contract and the kernels."""
