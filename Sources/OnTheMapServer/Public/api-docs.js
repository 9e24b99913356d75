// Renders /openapi.json as a page an app developer can read: operations by tag, their
// parameters, bodies and answers, then every schema's fields (nested ones too). No framework, no
// inline code. Each operation's id is its operationId and each schema's is schema-NAME, so
// docs/API.md can link to /api.html#v1-create or /api.html#schema-LocationWrite.

const main = document.getElementById("api");

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

function schemaName(schema) {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.type === "array") return `array of ${schemaName(schema.items)}`;
  if (schema.oneOf) return schema.oneOf.map(schemaName).join(" or ");
  return schema.type || "object";
}

function table(headings, rows) {
  const result = element("table");
  const head = result.createTHead().insertRow();
  for (const heading of headings) head.appendChild(element("th", heading, { scope: "col" }));
  const body = result.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    for (const cell of row) line.insertCell().textContent = cell;
  }
  return result;
}

// The rows of an object schema's fields, with nested objects' fields as `user.email.address`
// and an array's items' as `results[].name`.
function fieldRows(schema, prefix = "") {
  const required = new Set(schema.required || []);
  const rows = [];
  for (const [field, p] of Object.entries(schema.properties || {})) {
    const name = prefix + field;
    rows.push([name + (required.has(field) ? " (always)" : ""), schemaName(p), p.description || ""]);
    const inner = p.type === "array" ? p.items : p;
    if (inner?.properties) rows.push(...fieldRows(inner, name + (p.type === "array" ? "[]." : ".")));
  }
  return rows;
}

function operation(path, method, op) {
  const details = element("details", undefined, op.operationId ? { id: op.operationId } : {});
  const summary = element("summary");
  summary.append(element("span", method.toUpperCase(), { class: "method" }), element("code", path), ` ${op.summary || ""}`);
  details.appendChild(summary);
  if (op.description) details.appendChild(element("p", op.description.replaceAll("`", "")));
  const parameters = op.parameters || [];
  if (parameters.length) {
    details.appendChild(element("h3", "Parameters"));
    details.appendChild(table(["name", "in", "description"], parameters.map((p) => [p.name + (p.required ? " (required)" : ""), p.in, p.description || schemaName(p.schema)])));
  }
  const body = op.requestBody?.content?.["application/json"]?.schema;
  if (body) details.appendChild(element("p", `Body: JSON, ${schemaName(body)} (see Schemas).`));
  details.appendChild(element("h3", "Answers"));
  details.appendChild(table(["status", "meaning", "body"], Object.entries(op.responses || {}).map(([status, answer]) =>
    [status, answer.description || "", schemaName(answer.content?.["application/json"]?.schema)])));
  return details;
}

function render(spec) {
  main.replaceChildren(element("p", spec.info.description));
  const byTag = new Map((spec.tags || []).map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(spec.paths)) {
    const shared = item.parameters || [];
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const tag = (op.tags || ["Other"])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(operation(path, method, { ...op, parameters: [...shared, ...(op.parameters || [])] }));
    }
  }
  for (const [tag, operations] of byTag) {
    if (!operations.length) continue;
    const section = element("section", undefined, { "aria-label": tag });
    section.append(element("h2", tag), ...operations);
    main.appendChild(section);
  }
  const schemas = element("section", undefined, { "aria-label": "Schemas" });
  schemas.appendChild(element("h2", "Schemas"));
  for (const [name, schema] of Object.entries(spec.components.schemas)) {
    schemas.appendChild(element("h3", name, { id: `schema-${name}` }));
    if (schema.description) schemas.appendChild(element("p", schema.description));
    if (schema.properties) {
      schemas.appendChild(table(["field", "type", "notes"], fieldRows(schema)));
    } else if (schema.allOf) {
      schemas.appendChild(element("p", `${schemaName(schema.allOf[0])}, requiring ${(schema.allOf[1].required || []).join(", ")}.`));
    }
  }
  main.appendChild(schemas);
  showTarget();
}

// The operation or schema the address names (`#v1-create`): the page is drawn after the browser
// looked for it, so it is opened and scrolled to here.
function showTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  if (target.tagName === "DETAILS") target.open = true;
  target.scrollIntoView();
}

window.addEventListener("hashchange", showTarget);

fetch("/openapi.json")
  .then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  })
  .then(render)
  .catch((error) => main.replaceChildren(element("p", `The description could not be loaded (${error.message}); it is at /openapi.json.`)));
