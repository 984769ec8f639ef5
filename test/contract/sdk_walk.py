"""The SDK walk through Polar's Python client (polar-sdk 0.23.1), run by sdk-walk.test.ts.

Reads a JSON context on stdin (the API's URL, an organization's token, the ids an earlier walk
made in it, an OAuth2 app's credentials and a user's cookie) and calls every read operation and
the main writes, each answer parsed into the client's pydantic models. Prints one JSON line: every
step's outcome, named by the 0.34.17 TypeScript function of the same operation.
"""

import datetime
import json
import sys
import time
import uuid

import httpx
from polar_sdk import Polar

ctx = json.load(sys.stdin)
v = dict(ctx["vars"])
tag = uuid.uuid4().hex[:8]
url = ctx["url"]
oauth = ctx["oauth"]

merchant = Polar(access_token=ctx["token"], server_url=url)
anon = Polar(server_url=url)


def as_user(request: httpx.Request) -> None:
    """The authorize call as the signed-in user's browser sends it (the client sends no query)."""
    request.url = request.url.copy_with(query=oauth["authorize_query"].encode())
    request.headers["cookie"] = oauth["cookie"]
    request.headers["origin"] = url


user = Polar(server_url=url, client=httpx.Client(event_hooks={"request": [as_user]}))


def session():
    return {"customer_session": v["portal_token"]}


def first(page, attr="id"):
    return getattr(page.result.items[0], attr)


def granted(page):
    keys = [k for k in page.result.items if k.status == "granted"]
    return {"key_id": keys[0].id, "key": keys[0].key} if keys else {}


confirm = {"customer_billing_address": {"country": "FR"}, "confirmation_token_id": "tok_sandbox_success"}
today = datetime.date.today()

# (0.34.17 function, the call, what to keep from the answer, a condition to wait for)
STEPS = [
    ("organizationsGet", lambda: merchant.organizations.get(id=v["organizationId"]), None, None),
    ("organizationsList", lambda: merchant.organizations.list(), None, None),
    ("organizationsUpdate", lambda: merchant.organizations.update(id=v["organizationId"], organization_update={"name": f"Py walk {tag}"}), None, None),
    ("metricsLimits", lambda: merchant.metrics.limits(), None, None),
    ("metricsGet", lambda: merchant.metrics.get(start_date=today - datetime.timedelta(days=30), end_date=today, interval="week"), None, None),
    (
        "webhooksCreateWebhookEndpoint",
        lambda: merchant.webhooks.create_webhook_endpoint(request={"url": f"{ctx['receiver_url']}/py-{tag}", "format": "raw", "events": ["product.created"]}),
        lambda r: {"endpoint_id": r.id},
        None,
    ),
    ("webhooksGetWebhookEndpoint", lambda: merchant.webhooks.get_webhook_endpoint(id=v["endpoint_id"]), None, None),
    ("webhooksListWebhookEndpoints", lambda: merchant.webhooks.list_webhook_endpoints(), None, None),
    ("webhooksUpdateWebhookEndpoint", lambda: merchant.webhooks.update_webhook_endpoint(id=v["endpoint_id"], webhook_endpoint_update={"events": ["product.created", "product.updated"]}), None, None),
    ("webhooksResetWebhookEndpointSecret", lambda: merchant.webhooks.reset_webhook_endpoint_secret(id=v["endpoint_id"]), None, None),
    ("filesList", lambda: merchant.files.list(), None, None),
    ("benefitsCreate", lambda: merchant.benefits.create(request={"type": "custom", "description": "Py support", "properties": {"note": "Mail us"}}), lambda r: {"benefit_id": r.id}, None),
    ("benefitsGet", lambda: merchant.benefits.get(id=v["licenseBenefitId"]), None, None),
    ("benefitsList", lambda: merchant.benefits.list(), None, None),
    ("benefitsUpdate", lambda: merchant.benefits.update(id=v["benefit_id"], request_body={"type": "custom", "description": "Py support, 24/7"}), None, None),
    ("benefitsGrants", lambda: merchant.benefits.grants(id=v["customBenefitId"]), None, None),
    (
        "productsCreate",
        lambda: merchant.products.create(request={"name": "Py monthly", "recurring_interval": "month", "prices": [{"amount_type": "fixed", "price_amount": 1200, "price_currency": "usd"}]}),
        lambda r: {"product_id": r.id},
        None,
    ),
    ("productsGet", lambda: merchant.products.get(id=v["productId"]), None, None),
    ("productsList", lambda: merchant.products.list(), None, None),
    ("productsUpdate", lambda: merchant.products.update(id=v["product_id"], product_update={"description": "Walked in Python"}), None, None),
    ("productsUpdateBenefits", lambda: merchant.products.update_benefits(id=v["product_id"], product_benefits_update={"benefits": [v["benefit_id"]]}), None, None),
    ("customFieldsCreate", lambda: merchant.custom_fields.create(request={"type": "text", "slug": f"py-{tag}", "name": "Py", "properties": {"form_label": "Py"}}), lambda r: {"custom_field_id": r.id}, None),
    ("customFieldsGet", lambda: merchant.custom_fields.get(id=v["custom_field_id"]), None, None),
    ("customFieldsList", lambda: merchant.custom_fields.list(), None, None),
    ("discountsCreate", lambda: merchant.discounts.create(request={"name": "Py", "type": "percentage", "basis_points": 500, "duration": "once", "code": f"PY{tag}"}), lambda r: {"discount_id": r.id}, None),
    ("discountsGet", lambda: merchant.discounts.get(id=v["discount_id"]), None, None),
    ("discountsList", lambda: merchant.discounts.list(), None, None),
    ("checkoutLinksCreate", lambda: merchant.checkout_links.create(request={"payment_processor": "stripe", "product_id": v["oneTimeId"]}), lambda r: {"checkout_link_id": r.id}, None),
    ("checkoutLinksGet", lambda: merchant.checkout_links.get(id=v["checkout_link_id"]), None, None),
    ("checkoutLinksList", lambda: merchant.checkout_links.list(), None, None),
    ("customersCreate", lambda: merchant.customers.create(request={"email": f"py-{tag}@example.com", "name": "Py"}), None, None),
    ("customersGet", lambda: merchant.customers.get(id=v["customerId"]), None, None),
    ("customersList", lambda: merchant.customers.list(), None, None),
    ("customersUpdate", lambda: merchant.customers.update(id=v["customerId"], customer_update={"name": "Walker Py"}), None, None),
    ("customersGetExternal", lambda: merchant.customers.get_external(external_id=v["externalId"]), None, None),
    ("customersGetState", lambda: merchant.customers.get_state(id=v["customerId"]), None, None),
    ("customersGetStateExternal", lambda: merchant.customers.get_state_external(external_id=v["externalId"]), None, None),
    # A new subscription for the walk's buyer (their first was revoked), confirmed on the sandbox.
    ("checkoutsCreate", lambda: merchant.checkouts.create(request={"products": [v["productId"]], "customer_id": v["customerId"]}), lambda r: {"checkout_id": r.id, "client_secret": r.client_secret}, None),
    ("checkoutsGet", lambda: merchant.checkouts.get(id=v["checkout_id"]), None, None),
    ("checkoutsList", lambda: merchant.checkouts.list(), None, None),
    ("checkoutsUpdate", lambda: merchant.checkouts.update(id=v["checkout_id"], checkout_update={"metadata": {"walk": "py"}}), None, None),
    ("checkoutsClientGet", lambda: anon.checkouts.client_get(client_secret=v["client_secret"]), None, None),
    ("checkoutsClientUpdate", lambda: anon.checkouts.client_update(client_secret=v["client_secret"], checkout_update_public={"customer_name": "Walker Py"}), None, None),
    ("checkoutsClientConfirm", lambda: anon.checkouts.client_confirm(client_secret=v["client_secret"], checkout_confirm_stripe=confirm), None, None),
    ("subscriptionsList", lambda: merchant.subscriptions.list(customer_id=v["customerId"], active=True), lambda r: {"subscription_id": first(r)}, None),
    ("subscriptionsGet", lambda: merchant.subscriptions.get(id=v["subscription_id"]), None, None),
    ("subscriptionsUpdate", lambda: merchant.subscriptions.update(id=v["subscription_id"], subscription_update={"cancel_at_period_end": True}), None, None),
    ("subscriptionsUpdate", lambda: merchant.subscriptions.update(id=v["subscription_id"], subscription_update={"cancel_at_period_end": False}), None, None),
    ("subscriptionsExport", lambda: merchant.subscriptions.export(organization_id=v["organizationId"]), None, None),
    ("ordersList", lambda: merchant.orders.list(checkout_id=v["checkout_id"]), lambda r: {"order_id": first(r)}, None),
    ("ordersGet", lambda: merchant.orders.get(id=v["orderId"]), None, None),
    ("ordersUpdate", lambda: merchant.orders.update(id=v["order_id"], order_update={"billing_name": "Walker Py Inc.", "billing_address": {"country": "FR", "city": "Nice"}}), None, None),
    ("ordersInvoice", lambda: merchant.orders.invoice(id=v["orderId"]), None, None),
    ("paymentsList", lambda: merchant.payments.list(), None, None),
    ("paymentsGet", lambda: merchant.payments.get(id=v["paymentId"]), None, None),
    ("refundsCreate", lambda: merchant.refunds.create(request={"order_id": v["order_id"], "reason": "customer_request", "amount": 50}), None, None),
    ("refundsList", lambda: merchant.refunds.list(), None, None),
    # The key the new subscription granted (the walk's first one was revoked with its subscription).
    ("licenseKeysList", lambda: merchant.license_keys.list(), lambda r: granted(r), lambda r: "key_id" in granted(r)),
    ("licenseKeysGet", lambda: merchant.license_keys.get(id=v["key_id"]), None, None),
    ("licenseKeysUpdate", lambda: merchant.license_keys.update(id=v["key_id"], license_key_update={"limit_usage": 60}), None, None),
    ("licenseKeysValidate", lambda: merchant.license_keys.validate(request={"key": v["key"], "organization_id": v["organizationId"]}), None, None),
    ("licenseKeysActivate", lambda: merchant.license_keys.activate(request={"key": v["key"], "organization_id": v["organizationId"], "label": "py"}), lambda r: {"activation_id": r.id}, None),
    ("licenseKeysGetActivation", lambda: merchant.license_keys.get_activation(id=v["key_id"], activation_id=v["activation_id"]), None, None),
    ("licenseKeysDeactivate", lambda: merchant.license_keys.deactivate(request={"key": v["key"], "organization_id": v["organizationId"], "activation_id": v["activation_id"]}), None, None),
    ("metersCreate", lambda: merchant.meters.create(request={"name": "Py calls", "filter": {"conjunction": "and", "clauses": [{"property": "name", "operator": "eq", "value": "py_call"}]}, "aggregation": {"func": "count"}}), None, None),
    ("metersGet", lambda: merchant.meters.get(id=v["meterId"]), None, None),
    ("metersList", lambda: merchant.meters.list(), None, None),
    ("metersQuantities", lambda: merchant.meters.quantities(id=v["meterId"], start_timestamp=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1), end_timestamp=datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1), interval="day"), None, None),
    ("eventsIngest", lambda: merchant.events.ingest(request={"events": [{"name": "py_call", "customer_id": v["customerId"]}]}), None, None),
    ("eventsList", lambda: merchant.events.list(), None, None),
    ("eventsGet", lambda: merchant.events.get(id=v["eventId"]), None, None),
    ("eventsListNames", lambda: merchant.events.list_names(), None, None),
    ("customerMetersList", lambda: merchant.customer_meters.list(), None, None),
    ("customerMetersGet", lambda: merchant.customer_meters.get(id=v["customerMeterId"]), None, None),
    # The buyer's portal.
    ("customerSessionsCreate", lambda: merchant.customer_sessions.create(request={"customer_id": v["customerId"]}), lambda r: {"portal_token": r.token}, None),
    ("customerPortalOrganizationsGet", lambda: anon.customer_portal.organizations.get(slug=v["organizationSlug"]), None, None),
    ("customerPortalCustomersGet", lambda: anon.customer_portal.customers.get(security=session()), None, None),
    ("customerPortalCustomersUpdate", lambda: anon.customer_portal.customers.update(security=session(), request={"billing_name": "Walker Py SARL"}), None, None),
    ("customerPortalCustomersListPaymentMethods", lambda: anon.customer_portal.customers.list_payment_methods(security=session()), None, None),
    ("customerPortalOrdersList", lambda: anon.customer_portal.orders.list(security=session()), None, None),
    ("customerPortalOrdersGet", lambda: anon.customer_portal.orders.get(security=session(), id=v["oneTimeOrderId"]), None, None),
    ("customerPortalOrdersGetPaymentStatus", lambda: anon.customer_portal.orders.get_payment_status(security=session(), id=v["oneTimeOrderId"]), None, None),
    ("customerPortalOrdersInvoice", lambda: anon.customer_portal.orders.invoice(security=session(), id=v["oneTimeOrderId"]), None, None),
    ("customerPortalSubscriptionsList", lambda: anon.customer_portal.subscriptions.list(security=session()), None, None),
    ("customerPortalSubscriptionsGet", lambda: anon.customer_portal.subscriptions.get(security=session(), id=v["subscription_id"]), None, None),
    ("customerPortalSubscriptionsUpdate", lambda: anon.customer_portal.subscriptions.update(security=session(), id=v["subscription_id"], customer_subscription_update={"cancel_at_period_end": False}), None, None),
    ("customerPortalBenefitGrantsList", lambda: anon.customer_portal.benefit_grants.list(security=session()), lambda r: {"grant_id": first(r)}, None),
    ("customerPortalBenefitGrantsGet", lambda: anon.customer_portal.benefit_grants.get(security=session(), id=v["grant_id"]), None, None),
    ("customerPortalCustomerMetersList", lambda: anon.customer_portal.customer_meters.list(security=session()), None, None),
    ("customerPortalCustomerMetersGet", lambda: anon.customer_portal.customer_meters.get(security=session(), id=v["portalMeterId"]), None, None),
    ("customerPortalDownloadablesList", lambda: anon.customer_portal.downloadables.list(security=session()), None, lambda r: len(r.result.items) > 0),
    ("customerPortalLicenseKeysList", lambda: anon.customer_portal.license_keys.list(security=session()), None, None),
    ("customerPortalLicenseKeysGet", lambda: anon.customer_portal.license_keys.get(security=session(), id=v["key_id"]), None, None),
    ("customerPortalLicenseKeysValidate", lambda: anon.customer_portal.license_keys.validate(request={"key": v["key"], "organization_id": v["organizationId"]}), None, None),
    # The endpoint was sent the product created above.
    ("webhooksListWebhookDeliveries", lambda: merchant.webhooks.list_webhook_deliveries(endpoint_id=v["endpoint_id"]), lambda r: {"event_id": r.result.items[0].webhook_event.id}, lambda r: len(r.result.items) > 0),
    ("webhooksRedeliverWebhookEvent", lambda: merchant.webhooks.redeliver_webhook_event(id=v["event_id"]), None, None),
    # OAuth2: what the app asks of the user, its token's introspection and the user's info.
    ("oauth2Authorize", lambda: user.oauth2.authorize(), None, None),
    ("oauth2Introspect", lambda: anon.oauth2.introspect(request={"token": oauth["access_token"], "client_id": oauth["client_id"], "client_secret": oauth["client_secret"]}), None, None),
    ("oauth2Userinfo", lambda: Polar(access_token=oauth["access_token"], server_url=url).oauth2.userinfo(), None, None),
    # Writes undone.
    ("customFieldsDelete", lambda: merchant.custom_fields.delete(id=v["custom_field_id"]), None, None),
    ("discountsDelete", lambda: merchant.discounts.delete(id=v["discount_id"]), None, None),
    ("checkoutLinksDelete", lambda: merchant.checkout_links.delete(id=v["checkout_link_id"]), None, None),
    ("webhooksDeleteWebhookEndpoint", lambda: merchant.webhooks.delete_webhook_endpoint(id=v["endpoint_id"]), None, None),
    ("subscriptionsRevoke", lambda: merchant.subscriptions.revoke(id=v["subscription_id"]), None, None),
]


def describe(err: Exception) -> str:
    cause = err.__cause__
    text = f"{type(err).__name__}: {err}"
    return f"{text}\n  {cause}" if cause is not None else text


outcomes = []
for fn, call, keep, until in STEPS:
    try:
        result = call()
        deadline = time.monotonic() + 30
        while until is not None and not until(result) and time.monotonic() < deadline:
            time.sleep(0.25)
            result = call()
        if until is not None and not until(result):
            raise AssertionError("what the step waits for did not happen in 30 s")
        if keep is not None:
            v.update(keep(result))
        outcomes.append({"fn": fn, "ok": True})
    except KeyError as err:
        outcomes.append({"fn": fn, "ok": False, "detail": f"{err} was not kept: the step that keeps it failed"})
    except Exception as err:  # noqa: BLE001 - every failure is reported, and the walk goes on
        outcomes.append({"fn": fn, "ok": False, "detail": describe(err)})

print(json.dumps(outcomes))
