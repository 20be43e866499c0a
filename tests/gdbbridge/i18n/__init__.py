"""gdbbridge/i18n: the catalogues and languages."""
