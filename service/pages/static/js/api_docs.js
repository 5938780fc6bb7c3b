// Renders the OpenAPI document with the vendored Swagger UI (no inline script: the CSP forbids it).
/* global SwaggerUIBundle */
const spec = document.body.dataset.spec;
window.ui = SwaggerUIBundle({
  url: spec,
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  validatorUrl: null, // the public validator would be a request to another site
  defaultModelsExpandDepth: 0,
  onComplete: () => { document.body.dataset.ready = "true"; },
});
