from django.urls import path

from . import views

app_name = "game"

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="match"),
    path("match/<int:match_id>/resign/", views.resign, name="resign"),
    path("match/<int:match_id>/aid/", views.deduction_aid, name="aid"),
    path("match/<int:match_id>/rematch/", views.rematch_answer, name="rematch"),
]
