"""What the app says, worded once: each request's language and the catalogs (``i18n``), and every
explanation and refusal (``explain``). The pages (``web``) and the documents (``documents``) both speak
through it; it imports neither."""
