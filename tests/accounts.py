"""The named users of every view and socket test, and logged-in clients for them."""
from django.test import Client

PASSWORD = "correct-horse-battery-staple"


def client_for(user, **kwargs):
    client = Client(**kwargs)
    client.force_login(user)
    return client
