/** JSON-schema pieces the tools' specs share (the zod schemas in ../schema.ts check the same fields). */
export const PATH_PARAM = { type: "string", description: "The Python file, relative to the workspace root" };

export const QUALNAME_PARAM = {
  type: "string",
  description:
    "The definition: function, Class.method, or name#n for the n-th definition of a name defined more than once (a property setter is Class.prop#2)",
};

/** `{path, qualname}`, both required: the parameters of the tools that act on one definition. */
export const DEFINITION_PARAMETERS = {
  type: "object",
  properties: { path: PATH_PARAM, qualname: QUALNAME_PARAM },
  required: ["path", "qualname"],
};
