from django.contrib import admin
from django.urls import include, path

from .views import favicon

urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("lobby.urls")),
    path("", include("game.urls")),
    path("", include("game.history.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("", include("notify.urls")),
    path("", include("sanguo.urls")),
]
