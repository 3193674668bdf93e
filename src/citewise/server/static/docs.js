// Interactive API docs: Swagger UI (vendored in static/swagger/) over this server's OpenAPI.
"use strict";
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null, // never send the schema to the public validator
});
