"""Drives the generated Python client against the mock service (started by python.test.ts).

Environment: SERVICE_MOCK_URL (the mock's base address), SERVICE_MOCK_LIMITED_URL (a mock allowing one request
per second), SDK_MODULE (the generated package's import name), and generated/python on PYTHONPATH.
"""

from __future__ import annotations

import asyncio
import http.server
import importlib
import json
import os
import threading
import time
import unittest
import urllib.request
from typing import Any

import paperoffice_runtime

service_client = importlib.import_module(os.environ["SDK_MODULE"])
FileUpload = service_client.FileUpload
errors = service_client.errors
webhooks = service_client.webhooks

URL = os.environ["SERVICE_MOCK_URL"]
LIMITED_URL = os.environ["SERVICE_MOCK_LIMITED_URL"]
TOKEN = "svc_sk_python_tests"
FAST_POLL = (0.05, 0.1)
PDF = FileUpload("in.pdf", b"%PDF-1.4\n%test\n", "application/pdf")


def client(url: str = URL, token: str = TOKEN, **headers: str) -> service_client.Client:
    return service_client.Client(token, url, poll_interval=FAST_POLL, job_deadline=30.0, headers=headers)


def holding_client() -> service_client.Client:
    """A job deadline at least the call deadline: the submission holds for the payload (client_wait)."""
    return service_client.Client(TOKEN, URL, poll_interval=FAST_POLL, job_deadline=600.0)


def stats(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/_mock/stats", timeout=5) as response:
        decoded: dict[str, Any] = json.loads(response.read())
        return decoded


class JobTests(unittest.TestCase):
    def test_job_held_to_completion(self) -> None:
        with holding_client() as held:
            result = held.submit_workflow({"template": "pdf_ai_split", "file": PDF})
        self.assertTrue(result.job_id.startswith("job_"))
        self.assertEqual(result.polls, 0)
        # The payload is validated into the pipeline's payload type (an open JSON object, or a pydantic model).
        self.assertIsInstance(result.data, (dict, paperoffice_runtime.BaseModel))
        self.assertEqual(result.meta.status, 200)

    def test_job_answering_202_is_polled_to_completion(self) -> None:
        slow = client(**{"x-mock-job-duration-ms": "2500"})
        result = slow.submit_pdfstudio_unlock_with_password_pdf({"files": [PDF, b"%PDF-1.4\n"], "password": "secret"})
        self.assertGreaterEqual(result.polls, 1)
        self.assertIsNotNone(result.data)

    def test_failed_job_raises_with_its_id(self) -> None:
        failing = client(**{"x-mock-job-duration-ms": "300", "x-mock-job-outcome": "fail"})
        with self.assertRaises(errors.JobFailedError) as caught:
            failing.submit_workflow({"template": "pdf_ai_split", "pofid": "doc-1", "client_wait": False})
        self.assertTrue((caught.exception.job_id or "").startswith("job_"))
        self.assertIn("fail", caught.exception.job_status)

    def test_submission_is_not_resubmitted_after_a_500(self) -> None:
        before = stats(URL)["submissions"]
        with self.assertRaises(errors.JobMayExistError):
            client(**{"x-mock-fault": "500"}).submit_workflow({"template": "pdf_ai_split", "file": PDF})
        self.assertEqual(stats(URL)["submissions"], before + 1)

    def test_submission_failure_is_a_job_may_exist_error(self) -> None:
        before = stats(URL)["submissions"]
        with self.assertRaises(errors.JobMayExistError) as caught:
            client(**{"x-mock-fault": "502"}).submit_workflow({"template": "pdf_ai_split", "file": PDF})
        self.assertIsInstance(caught.exception, errors.MayHaveBeenProcessedError)
        self.assertIsInstance(caught.exception, service_client.MayHaveBeenProcessedError)
        self.assertEqual(caught.exception.status, 502)
        self.assertIsInstance(caught.exception.__cause__, errors.ServiceError)
        self.assertEqual(stats(URL)["submissions"], before + 1)

    def test_submission_is_resent_after_a_503(self) -> None:
        before = stats(URL)["submissions"]
        flaky = client(**{"x-mock-fault": "503", "x-mock-fault-times": "1"})
        result = flaky.submit_workflow({"template": "pdf_ai_split", "file": PDF})
        self.assertTrue(result.job_id.startswith("job_"))
        self.assertEqual(stats(URL)["submissions"], before + 2)

    def test_started_job_returns_a_handle_that_waits(self) -> None:
        slow = client(**{"x-mock-job-duration-ms": "300"})
        handle = slow.start_job("workflow", {"template": "pdf_ai_split", "file": PDF})
        self.assertIsInstance(handle, paperoffice_runtime.JobHandle)
        self.assertTrue(handle.job_id.startswith("job_"))
        result = handle.wait(deadline=20)
        self.assertEqual(result.job_id, handle.job_id)
        self.assertIsNotNone(result.data)


class AsyncTests(unittest.TestCase):
    def test_async_client_submits_and_polls_like_the_sync_one(self) -> None:
        async def run() -> tuple[service_client.JobResult[Any], service_client.JobResult[Any]]:
            async with service_client.AsyncClient(TOKEN, URL, poll_interval=FAST_POLL, job_deadline=600.0) as c:
                held = await c.submit_workflow({"template": "pdf_ai_split", "file": PDF})
                handle = await c.start_job("workflow", {"template": "pdf_ai_split", "file": PDF})
                return held, await handle.wait()

        held, waited = asyncio.run(run())
        self.assertEqual(held.polls, 0)
        self.assertIsInstance(held.data, (dict, paperoffice_runtime.BaseModel))
        self.assertGreaterEqual(waited.polls, 1)

    def test_async_errors_keep_their_class_and_code(self) -> None:
        async def run() -> None:
            async with service_client.AsyncClient("not-a-token", URL) as c:
                await c.get_job("job_x")

        with self.assertRaises(errors.InvalidTokenError) as caught:
            asyncio.run(run())
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "INVALID_TOKEN"))


class ErrorTests(unittest.TestCase):
    def test_error_code_maps_to_its_class(self) -> None:
        with self.assertRaises(errors.InvalidTokenError) as caught:
            client(token="not-a-token").get_job("job_x")
        error = caught.exception
        self.assertIsInstance(error, errors.ServiceError)
        # The code's class is below the class of its status.
        self.assertIsInstance(error, errors.AuthenticationError)
        self.assertEqual((error.status, error.code), (401, "INVALID_TOKEN"))
        self.assertIsInstance(error.processing_time, str)
        with self.assertRaises(errors.NotFoundCodeError) as missing:
            client().get_job("job_does_not_exist")
        self.assertIsInstance(missing.exception, errors.NotFoundError)

    def test_plain_post_answered_500_is_sent_once(self) -> None:
        before = stats(URL)["requests"].get("testWebhook", 0)
        with self.assertRaises(errors.MayHaveBeenProcessedError) as caught:
            client(**{"x-mock-fault": "500"}).test_webhook({"subscription_id": "sub_python_500"})
        error = caught.exception
        self.assertNotIsInstance(error, errors.JobMayExistError)
        self.assertEqual(error.status, 500)
        self.assertIsInstance(error.__cause__, errors.ServiceError)
        # The answer's error too: caught by ServiceError and the 5xx class.
        self.assertIsInstance(error, errors.ServiceError)
        self.assertIsInstance(error, errors.InternalServerError)
        self.assertIn("HTTP 500", str(error))
        self.assertEqual(stats(URL)["requests"].get("testWebhook", 0), before + 1)

    def test_plain_post_losing_its_connection_is_sent_once(self) -> None:
        before = stats(URL)["requests"].get("updateWebhook", 0)
        with self.assertRaises(errors.MayHaveBeenProcessedError) as caught:
            client(**{"x-mock-fault": "reset-after-body"}).update_webhook({"subscription_id": "sub_python_reset"})
        self.assertNotIsInstance(caught.exception, errors.JobMayExistError)
        self.assertNotIsInstance(caught.exception, errors.ServiceError)
        self.assertIsInstance(caught.exception.__cause__, errors.APIConnectionError)
        self.assertEqual(stats(URL)["requests"].get("updateWebhook", 0), before + 1)

    def test_plain_post_answered_503_is_retried(self) -> None:
        before = stats(URL)["requests"].get("testWebhook", 0)
        flaky = client(token="svc_sk_python_tests_post_503", **{"x-mock-fault": "503", "x-mock-fault-times": "1"})
        with self.assertRaises(errors.ServiceError) as caught:
            flaky.test_webhook({"subscription_id": "sub_python_503"})
        self.assertNotEqual(caught.exception.status, 503)
        self.assertEqual(stats(URL)["requests"].get("testWebhook", 0), before + 2)

    def test_idempotent_get_answered_500_is_retried(self) -> None:
        before = stats(URL)["requests"].get("listWebhooks", 0)
        flaky = client(token="svc_sk_python_tests_get_500", **{"x-mock-fault": "500", "x-mock-fault-times": "1"})
        answer = flaky.list_webhooks()
        self.assertEqual(answer.status, "success")
        self.assertEqual(stats(URL)["requests"].get("listWebhooks", 0), before + 2)

    def test_429_is_retried_after_retry_after(self) -> None:
        limited = client(LIMITED_URL)
        limited.list_webhooks()
        started = time.monotonic()
        answer = limited.list_webhooks()
        self.assertEqual(answer.status, "success")
        self.assertGreaterEqual(time.monotonic() - started, 0.5)
        self.assertGreaterEqual(stats(LIMITED_URL)["responses"].get("429", 0), 1)


class _KeepAlive(http.server.BaseHTTPRequestHandler):
    """Answers every GET with a job status, keep-alive; counts the sockets the server accepted."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    connections = 0
    requests = 0
    lock = threading.Lock()
    BODY = json.dumps({"job_id": "job_0123456789", "job_status": "completed", "processing_time": "0.004s"}).encode()

    def setup(self) -> None:
        super().setup()
        with _KeepAlive.lock:
            _KeepAlive.connections += 1

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        with _KeepAlive.lock:
            _KeepAlive.requests += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.BODY)))
        self.end_headers()
        self.wfile.write(self.BODY)

    def log_message(self, format: str, *args: object) -> None:
        pass


class ConnectionTests(unittest.TestCase):
    """The generated clients keep one pooled connection alive: 100 sequential calls open one socket."""

    def setUp(self) -> None:
        _KeepAlive.connections = 0
        _KeepAlive.requests = 0
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _KeepAlive)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}/latest"

    def tearDown(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def test_one_connection_for_a_hundred_sequential_calls_sync(self) -> None:
        with service_client.Client(TOKEN, self.base) as c:
            for _ in range(100):
                self.assertEqual(c.get_job("job_0123456789").job_status, "completed")
        self.assertEqual((_KeepAlive.requests, _KeepAlive.connections), (100, 1))

    def test_one_connection_for_a_hundred_sequential_calls_async(self) -> None:
        async def run() -> None:
            async with service_client.AsyncClient(TOKEN, self.base) as c:
                for _ in range(100):
                    self.assertEqual((await c.get_job("job_0123456789")).job_status, "completed")

        asyncio.run(run())
        self.assertEqual((_KeepAlive.requests, _KeepAlive.connections), (100, 1))


class _Receiver(http.server.BaseHTTPRequestHandler):
    received: list[tuple[bytes, dict[str, str]]] = []
    arrived = threading.Event()

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length") or 0)
        _Receiver.received.append((self.rfile.read(length), dict(self.headers.items())))
        self.send_response(200)
        self.end_headers()
        _Receiver.arrived.set()

    def log_message(self, format: str, *args: object) -> None:
        pass


class WebhookTests(unittest.TestCase):
    def test_signature_verified_and_tampering_refused(self) -> None:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            c = client()
            secret = "whsec_python_tests"
            created = c.subscribe_webhook(
                {"name": "py", "url": f"http://127.0.0.1:{server.server_address[1]}/hook", "events": ["job.completed"], "secret": secret}
            )
            subscription_id = created.subscription_id
            self.assertIsNotNone(subscription_id)
            c.test_webhook({"subscription_id": subscription_id})
            self.assertTrue(_Receiver.arrived.wait(10), "no delivery arrived")
            raw, headers = _Receiver.received[0]
            event = webhooks.verify(raw, headers, secret)
            self.assertEqual(event.event_type, "job.completed")
            self.assertEqual(event.event_id, headers["X-Service-Event-ID"])
            self.assertEqual(webhooks.body_of(event)["event_type"], "job.completed")
            typed = webhooks.unwrap(raw, headers, secret)
            self.assertIsInstance(typed, webhooks.JobCompletedDelivery)
            self.assertEqual((typed.event_type, typed.known, typed.event_id), ("job.completed", True, event.event_id))
            rotated = webhooks.verify(raw, headers, ["whsec_old", secret])
            self.assertEqual((rotated.event_id, rotated.secret_index), (event.event_id, 1))
            tampered = raw.replace(b'"job.completed"', b'"job.failed"')
            self.assertNotEqual(tampered, raw)
            with self.assertRaises(errors.WebhookSignatureError):
                webhooks.verify(tampered, headers, secret)
            with self.assertRaises(errors.WebhookSignatureError):
                webhooks.verify(raw, headers, "whsec_wrong")
            with self.assertRaises(errors.WebhookSignatureError):
                webhooks.verify(raw, {**headers, "X-Service-Signature": headers["X-Service-Signature"].upper()}, secret)
            without = {k: v for k, v in headers.items() if k.lower() != "x-service-signature"}
            with self.assertRaises(errors.WebhookSignatureError):
                webhooks.verify(raw, without, secret)
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    unittest.main()
