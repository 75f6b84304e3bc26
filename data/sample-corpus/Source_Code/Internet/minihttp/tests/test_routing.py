import unittest

from minihttp.exceptions import MethodNotAllowed, NotFound
from minihttp.routing import Route, Router, compile_pattern


def handler(request):
    return None


class TestCompilePattern(unittest.TestCase):
    def test_converters(self):
        regex, converters = compile_pattern("/users/<int:user_id>/posts/<slug>")
        match = regex.match("/users/12/posts/hello-world")
        self.assertEqual(match.groupdict(), {"user_id": "12", "slug": "hello-world"})
        self.assertIs(converters["user_id"], int)
        self.assertIsNone(regex.match("/users/x/posts/y"))

    def test_literal_parts_are_escaped(self):
        regex, _ = compile_pattern("/files/<path:rest>.txt")
        self.assertEqual(regex.match("/files/a/b.txt").group("rest"), "a/b")
        self.assertIsNone(regex.match("/files/a/bxtxt"))

    def test_errors(self):
        with self.assertRaises(ValueError):
            compile_pattern("/<float:x>")
        with self.assertRaises(ValueError):
            compile_pattern("/<a>/<a>")


class TestRoute(unittest.TestCase):
    def test_match(self):
        route = Route("/items/<int:item_id>", handler, frozenset({"get", "post"}))
        self.assertEqual(route.match("/items/-3"), {"item_id": -3})
        self.assertIsNone(route.match("/items/3/extra"))
        self.assertEqual(route.methods, frozenset({"GET", "POST"}))
        self.assertEqual(route.name, "handler")


class TestRouter(unittest.TestCase):
    def setUp(self):
        self.router = Router(prefix="/api/")

        @self.router.get("/items/<int:item_id>", name="item")
        def show(request, item_id):
            return item_id

        @self.router.post("/items")
        def create(request):
            return None

        self.show = show

    def test_resolve(self):
        route, params = self.router.resolve("get", "/api/items/7")
        self.assertIs(route.handler, self.show)
        self.assertEqual(params, {"item_id": 7})
        route, _ = self.router.resolve("HEAD", "/api/items/7")
        self.assertEqual(route.name, "item")

    def test_resolve_errors(self):
        with self.assertRaises(NotFound):
            self.router.resolve("GET", "/api/nothing")
        with self.assertRaises(MethodNotAllowed) as ctx:
            self.router.resolve("DELETE", "/api/items")
        self.assertEqual(ctx.exception.headers, {"Allow": "POST"})

    def test_url_for(self):
        self.assertEqual(self.router.url_for("item", item_id=5), "/api/items/5")
        self.assertEqual(self.router.url_for("create"), "/api/items")
        with self.assertRaises(KeyError):
            self.router.url_for("item")
        with self.assertRaises(KeyError):
            self.router.url_for("missing")

    def test_url_for_quotes_values(self):
        self.router.add("/tags/<name>", handler, name="tag")
        self.assertEqual(self.router.url_for("tag", name="a b/c"), "/api/tags/a%20b%2Fc")


if __name__ == "__main__":
    unittest.main()
