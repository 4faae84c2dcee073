# Third hostile set (hostile3.cmake): cases of this area.
